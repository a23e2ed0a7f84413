// Exit codes that mean something to scripts (README "Command line").
export const EXIT = {
  OK: 0,
  /** Anything unexpected: network down, a server error. */
  ERROR: 1,
  /** Bad usage: unknown command or option, missing argument (commander's own code). */
  USAGE: 2,
  /** Not logged in, or the stored key was revoked: run `todo login`. */
  AUTH: 3,
  /** The todo or project does not exist or is not yours. */
  NOT_FOUND: 4,
  /** The login was denied or its code expired. */
  LOGIN_REFUSED: 5,
  /** The server refused the input or the state change (400, 409, 422). */
  REFUSED: 6,
  /** Rate-limited: try again later. */
  RATE_LIMITED: 7,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly code?: string,
  ) {
    super(message);
  }
}
