import { operationPath } from "../lib/api/client.ts";
import { ROUTES } from "../lib/api/routes.ts";
import type { InputArgs, OperationId, OperationInput, OperationResult } from "../lib/api/types.ts";
import { CliError, EXIT } from "./exit-codes.ts";

// The typed client of the command line: the same route table and types as the browser's
// (lib/api/), against /api/v1 with the stored API key (or /dst/v1 with a dst_ token).

export type Client = {
  server: string;
  call<Id extends OperationId>(id: Id, ...args: InputArgs<Id>): Promise<OperationResult<Id>>;
  /** The raw answer, for the login poll (which reads 429s itself). */
  raw(id: OperationId, input?: unknown): Promise<Response>;
  /** A request by path below the base, for operations outside the cookie base's route table (apiKey_validate). */
  send(method: string, path: string, body?: unknown): Promise<Response>;
  /** The answer of a 2xx, its body unread (a streamed download); otherwise throws as `call` does. */
  stream(id: OperationId, input?: unknown): Promise<Response>;
};

const EXIT_OF: Record<string, number> = {
  UNAUTHORIZED: EXIT.AUTH,
  NOT_FOUND: EXIT.NOT_FOUND,
  FORBIDDEN: EXIT.NOT_FOUND,
  BAD_REQUEST: EXIT.REFUSED,
  CONFLICT: EXIT.REFUSED,
  UNPROCESSABLE_CONTENT: EXIT.REFUSED,
  PAYMENT_REQUIRED: EXIT.REFUSED,
  TOO_MANY_REQUESTS: EXIT.RATE_LIMITED,
};

export function createClient(server: string, credential?: string): Client {
  const base = credential?.startsWith("dst_") ? "/dst/v1" : "/api/v1";
  async function raw(id: OperationId, input?: unknown): Promise<Response> {
    const [method] = (ROUTES as Record<string, readonly [string, string]>)[id]!;
    return send(method, operationPath(id, input as OperationInput<typeof id>), (input as { body?: unknown } | undefined)?.body);
  }
  async function send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { "user-agent": "todo-cli" };
    if (credential) headers.authorization = `Bearer ${credential}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    try {
      return await fetch(`${server}${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      throw new CliError(`Cannot reach ${server}: ${(err as Error).cause ?? (err as Error).message}`, EXIT.ERROR);
    }
  }
  return {
    server,
    raw,
    send,
    async call(id, ...args) {
      const res = await raw(id, args[0]);
      const text = await res.text();
      if (!res.ok) throw failure(res.status, text);
      return (text ? JSON.parse(text) : null) as never;
    },
    async stream(id, input) {
      const res = await raw(id, input);
      if (!res.ok) throw failure(res.status, await res.text());
      return res;
    },
  };
}

/** A refused request as the CLI reports it: the server's message, and the exit code of its error code. */
function failure(status: number, text: string): CliError {
  let err: { message?: string; code?: string } = {};
  try {
    err = (JSON.parse(text) as typeof err | null) ?? {};
  } catch {
    // Not the API's error shape (a proxy's page): the status says it.
  }
  const hint = err.code === "UNAUTHORIZED" ? " (run `todo login`)" : "";
  return new CliError(`${err.message ?? `HTTP ${status}`}${hint}`, EXIT_OF[err.code ?? ""] ?? EXIT.ERROR, err.code);
}
