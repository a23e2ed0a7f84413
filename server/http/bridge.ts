import type { Base } from "../auth/caller.ts";
import type { Runtime } from "../runtime.ts";
import type { AnyOperation, OperationTypes } from "./define.ts";
import type { ErrorBody } from "./errors.ts";

/**
 * Next.js bundles route handlers apart from the custom server's modules, so module-level
 * singletons would exist twice. The server publishes its one pipeline and runtime here, on
 * globalThis, and the catch-all route handlers hand every request to it.
 */
export type Bridge = {
  handle(base: Base, request: Request): Promise<Response>;
  runtime: Runtime;
  /** The registry's operations (id, method, path), for `call`. */
  operations: readonly Pick<AnyOperation, "id" | "method" | "path">[];
  /** Handlers of raw-body routes (server/http/raw-route.ts) by route id, run in the server's module graph (e.g. `stripe_webhook`). */
  rawRoutes?: Record<string, (rawBody: string, request: Request) => Promise<unknown>>;
};

const KEY = Symbol.for("todo-service.bridge");
type Holder = { [KEY]?: Bridge };

export function setBridge(bridge: Bridge | undefined): void {
  (globalThis as Holder)[KEY] = bridge;
}

export function getBridge(): Bridge | undefined {
  return (globalThis as Holder)[KEY];
}

/**
 * operationId → its types. Empty here (server/http/ knows no operation); server/operations/index.ts
 * fills it in by declaration merging, so `call` is typed from the registry.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RegisteredOperations {}

type Known<T> = Exclude<T, undefined>;
/** `params`, `query` and `body` as the operation takes them; each may be left out when nothing in it is required. */
export type CallInput<T extends OperationTypes> = (undefined extends T["params"] ? { params?: Known<T["params"]> } : { params: T["params"] }) &
  (undefined extends T["query"] ? { query?: Known<T["query"]> } : object extends T["query"] ? { query?: T["query"] } : { query: T["query"] }) &
  (undefined extends T["body"] ? { body?: Known<T["body"]> } : { body: T["body"] });

export type CallResult<R> = { ok: true; status: number; data: R } | { ok: false; status: number; error: ErrorBody };

type Types<Id extends keyof RegisteredOperations> = RegisteredOperations[Id] extends OperationTypes ? RegisteredOperations[Id] : never;
export type OperationId = keyof RegisteredOperations & string;
export type OperationInput<Id extends OperationId> = CallInput<Types<Id>>;
export type OperationResponse<Id extends OperationId> = Types<Id>["response"];

/**
 * An operation through the one pipeline, in process, for server components: answers exactly what
 * the same request to `<base>` answers over HTTP (the same caller resolution from `cookie`, the
 * same access checks and errors), without a round trip to the server's own origin. The path is
 * built from the operation's template and `params`; the answer is typed from the registry. Null
 * when the app runs without the custom server.
 */
export async function call<Id extends OperationId>(
  base: Base,
  operationId: Id,
  input: OperationInput<Id>,
  opts: { cookie?: string } = {},
): Promise<CallResult<OperationResponse<Id>> | null> {
  const bridge = getBridge();
  if (!bridge) return null;
  const op = bridge.operations.find((o) => o.id === operationId);
  if (!op) throw new Error(`No operation ${operationId} in the registry`);
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (params?.[name] === undefined) throw new Error(`${operationId}: no value for {${name}}`);
    return encodeURIComponent(String(params[name]));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) search.set(k, String(v));
  const qs = search.size ? `?${search.toString()}` : "";
  const headers: Record<string, string> = opts.cookie ? { cookie: opts.cookie } : {};
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await bridge.handle(
    base,
    new Request(`http://in-process.internal/${base}/v1${path}${qs}`, { method: op.method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  const json: unknown = await res.json().catch(() => null);
  if (res.ok) return { ok: true, status: res.status, data: json as OperationResponse<Id> };
  const error = json && typeof json === "object" && "code" in json && "message" in json ? (json as ErrorBody) : { message: `Request failed (${res.status})`, code: "INTERNAL_SERVER_ERROR" as const };
  return { ok: false, status: res.status, error };
}

/** The handler the catch-all route files export for every method. */
export function routeHandler(base: Base) {
  return async function handle(request: Request): Promise<Response> {
    const bridge = getBridge();
    if (!bridge) {
      return Response.json(
        { message: "The API is served by the custom server: start it with `npm start` or `npm run dev`", code: "INTERNAL_SERVER_ERROR" },
        { status: 500 },
      );
    }
    return bridge.handle(base, request);
  };
}
