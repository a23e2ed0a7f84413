// The browser's typed client for the cookie base (/cookie/v1): `call("project_get", { params:
// { projectId } })` builds the path from the registry's route map (routes.ts, generated), sends the
// body as JSON and returns the operation's response type; an error answer becomes an
// ApiClientError carrying the API's {message, code, data}. Types come from the registry (types.ts).
import { ROUTES } from "./routes";
import type { ErrorCode, InputArgs, OperationId, OperationInput, OperationResult } from "./types";

export const COOKIE_BASE = "/cookie/v1";

/** An error answer of the API (the spec's shape) or, with `status` 0, a request that never got one. */
export class ApiClientError extends Error {
  override readonly name = "ApiClientError";
  constructor(
    message: string,
    readonly code: ErrorCode | "UNKNOWN",
    readonly status: number,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

type LooseInput = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/** The path and query of an operation's request below the base, parameters percent-encoded. */
export function operationPath<Id extends OperationId>(id: Id, input?: OperationInput<Id>): string {
  const route = (ROUTES as Record<string, readonly [string, string]>)[id];
  if (!route) throw new Error(`unknown operation ${id}`);
  const { params, query } = (input as unknown as LooseInput | undefined) ?? {};
  const path = route[1].replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === "") throw new Error(`${id}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v instanceof Date ? v.toISOString() : String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

const CODES = new Set<string>(["BAD_REQUEST", "UNAUTHORIZED", "PAYMENT_REQUIRED", "FORBIDDEN", "NOT_FOUND", "METHOD_NOT_SUPPORTED", "CONFLICT", "PAYLOAD_TOO_LARGE", "UNPROCESSABLE_CONTENT", "TOO_MANY_REQUESTS", "INTERNAL_SERVER_ERROR"] satisfies ErrorCode[]);

/** Sends one request to the cookie base and returns the parsed JSON answer (null when empty). */
export async function request(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${COOKIE_BASE}${path}`, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    if (res.ok) throw new ApiClientError("The server's answer is not JSON", "UNKNOWN", res.status);
  }
  if (!res.ok) {
    const err = (json && typeof json === "object" ? json : {}) as { message?: unknown; code?: unknown; data?: unknown };
    const code = typeof err.code === "string" && CODES.has(err.code) ? (err.code as ErrorCode) : "UNKNOWN";
    const data = err.data && typeof err.data === "object" && !Array.isArray(err.data) ? (err.data as Record<string, unknown>) : undefined;
    throw new ApiClientError(typeof err.message === "string" ? err.message : `Request failed (${res.status})`, code, res.status, data);
  }
  return json;
}

/** Calls an operation by its operationId; the result has the operation's response type. */
export async function call<Id extends OperationId>(id: Id, ...args: InputArgs<Id>): Promise<OperationResult<Id>> {
  const input = args[0] as unknown as OperationInput<Id> | undefined;
  const method = (ROUTES as Record<string, readonly [string, string]>)[id]?.[0] ?? "GET";
  return (await request(method, operationPath(id, input), (input as unknown as LooseInput | undefined)?.body)) as OperationResult<Id>;
}

export const client = { call };
