// Who is calling, resolved from the credential of the request's base path.
export type Credential = "apiKey" | "session" | "device";
export type Base = "api" | "cookie" | "dst";

export const BASE_PATH: Record<Base, string> = { api: "/api/v1", cookie: "/cookie/v1", dst: "/dst/v1" };
export const BASE_CREDENTIAL: Record<Base, Credential> = { api: "apiKey", cookie: "session", dst: "device" };

export type Caller = {
  credential: Credential;
  userId: string;
  email: string;
  name: string | null;
  isAdmin: boolean;
  /** Set for API-key callers. */
  apiKeyId?: string;
  /** Set for session-cookie callers: the Session row, so its connections close at sign-out. */
  sessionId?: string;
  /** When the session or token expires (ms since the epoch); its connections close then. */
  expiresAt?: number;
  /** Set for device-token callers. */
  deviceId?: string | null;
  tokenId?: string;
  /** A mayfly token may act on this one todo only. */
  todoScope?: string | null;
  /** Set for the agent's tools, which act as the todo's owner: what they write is the agent's (authorOf). */
  agent?: true;
};

/**
 * The author of a user message the caller adds (Message.authorId): the acting user, whatever the
 * credential (session, API key, device token); none for the agent's tools, whose messages are the agent's.
 */
export function authorOf(caller: Caller): string | null {
  return caller.agent ? null : caller.userId;
}

/**
 * One credential: an API key, a dst_ token, a device (all its tokens), a browser session, or
 * `user:<id>` for every credential of a user (account deleted). Revoking one closes its
 * connections and drops it from every process's credential cache.
 */
export type CredentialRef = `${"apiKey" | "token" | "device" | "session" | "user"}:${string}`;

/** Every credential a caller acts with (its user's aside): revoking any of them ends it. */
export function credentialsOf(caller: Caller): CredentialRef[] {
  const refs: CredentialRef[] = [];
  if (caller.apiKeyId) refs.push(`apiKey:${caller.apiKeyId}`);
  if (caller.tokenId) refs.push(`token:${caller.tokenId}`);
  if (caller.deviceId) refs.push(`device:${caller.deviceId}`);
  if (caller.sessionId) refs.push(`session:${caller.sessionId}`);
  return refs;
}
