import { randomUUID } from "node:crypto";
import { z } from "zod";
import { BASE_PATH, type Base, type Caller } from "../auth/caller.ts";
import { changesState, isIdempotent, type AnyOperation } from "./define.ts";
import { log } from "../log.ts";
import { runtime } from "../runtime.ts";
import { ApiError, errorResponse, jsonResponse, toApiError, type Issue } from "./errors.ts";
import { readJsonBody } from "./body.ts";
import { IdempotencyStore, readIdempotencyKey, requestFingerprint, runIdempotent } from "./idempotency.ts";
import { guardInput } from "./input-guard.ts";
import { checkSameOrigin } from "./same-origin.ts";
import { recorded } from "./status-record.ts";
import { CLIENT_IP_HEADER, RateLimits, credentialKey, ipKey } from "./rate-limit.ts";
import { basesOf } from "./define.ts";
import { Router } from "./router.ts";
import { StreamedJson, streamedJsonResponse } from "./streamed.ts";

export type ResolveCaller = (base: Base, headers: Headers) => Promise<Caller | null>;

export function zodIssues(error: z.ZodError, location: string): Issue[] {
  return error.issues.map((i) => ({
    path: [location, ...i.path.map(String)].join("."),
    message: i.message,
    code: i.code,
  }));
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, location: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = zodIssues(result.error, location);
    throw new ApiError("BAD_REQUEST", `Invalid ${location}: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, { issues });
  }
  return result.data;
}

/**
 * Bodies of operations whose path names the object (DELETE /projects/{projectId} with
 * ProjectIdInput) repeat the identifier: a missing one is taken from the path, a different one is
 * 400 and the handler never runs. Compared after parsing, so trimming applies to both alike.
 */
function echoedKeys(schema: z.ZodType, params: Record<string, string>): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const shape = schema.shape as Record<string, unknown>;
  return Object.keys(params).filter((k) => k in shape);
}

function fillFromPath(body: unknown, keys: string[], params: Record<string, string>): unknown {
  if (keys.length === 0) return body;
  const obj = body === undefined ? {} : body;
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return body;
  const out: Record<string, unknown> = { ...(obj as Record<string, unknown>) };
  for (const key of keys) if (out[key] === undefined) out[key] = params[key];
  return out;
}

function checkEchoes(body: unknown, keys: string[], params: Record<string, unknown>): void {
  for (const key of keys) {
    if ((body as Record<string, unknown>)[key] !== params[key])
      throw new ApiError("BAD_REQUEST", `body.${key} must repeat the ${key} of the path`, {
        issues: [{ path: `body.${key}`, message: `must equal the path's ${key}`, code: "custom" }],
      });
  }
}

/**
 * A todo-scoped (mayfly) token may call only operations that declare `todoScope`, and only on its
 * own todo: the path's todoId, or (for operations without one) the body's. Everything else is 403.
 */
function checkTodoScope(op: AnyOperation, scope: string, todoId: unknown): void {
  if (!op.todoScope) throw new ApiError("FORBIDDEN", `This token is scoped to one todo; ${op.id} is not available to it`);
  if (todoId !== scope) throw new ApiError("FORBIDDEN", "This token is scoped to another todo");
}

export type Pipeline = (base: Base, request: Request) => Promise<Response>;

/** resolve caller for the base → check access → parse input → handler → serialize. */
export function createPipeline(router: Router, resolveCaller: ResolveCaller, appUrl: string, opts: { trustProxy?: boolean; limits?: RateLimits; idempotency?: IdempotencyStore } = {}): Pipeline {
  const limits = opts.limits ?? new RateLimits();
  const idempotency = opts.idempotency ?? new IdempotencyStore(() => runtime().prisma);
  // Each base routes only the operations it serves, so 405's Allow never names a method that
  // exists under another base only. The full router still explains a 404 for those.
  const byBase = Object.fromEntries(
    (Object.keys(BASE_PATH) as Base[]).map((b) => [b, new Router(router.operations.filter((op) => basesOf(op).includes(b)))]),
  ) as Record<Base, Router>;
  return async function handle(base, request) {
    const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
    const idHeader: Record<string, string> = { "x-request-id": requestId };
    // The custom server sets the peer address on every network request; in-process reads
    // (pipelineGet, for the app's own pages) have none and are not limited by IP.
    const ip = request.headers.get(CLIENT_IP_HEADER);
    const limitByIp = (policy: AnyOperation["rateLimit"] = "anonymous") => (ip === null ? undefined : limits.enforce(policy, ipKey(ip), idHeader));
    let op: AnyOperation | undefined;
    try {
      const url = new URL(request.url);
      const sub = url.pathname.slice(BASE_PATH[base].length) || "/";
      const match = byBase[base].match(request.method, sub);
      if (match.kind !== "found") await limitByIp();
      if (match.kind === "none") {
        const elsewhere = router.match(request.method, sub);
        if (elsewhere.kind === "found")
          throw new ApiError("NOT_FOUND", `${elsewhere.op.id} is not served under ${BASE_PATH[base]}; use ${basesOf(elsewhere.op).map((b) => BASE_PATH[b]).join(" or ")}`);
        throw new ApiError("NOT_FOUND", `No operation at ${request.method} ${BASE_PATH[base]}${sub}`);
      }
      if (match.kind === "method")
        throw new ApiError("METHOD_NOT_SUPPORTED", `${request.method} is not supported at ${BASE_PATH[base]}${sub}`, { allow: match.allow }, { allow: match.allow.join(", ") });
      op = match.op;

      if (base === "cookie" && changesState(op)) checkSameOrigin(request, appUrl, opts.trustProxy);

      let caller: Caller | null = null;
      if (op.auth === "none") {
        caller = await resolveCaller(base, request.headers).catch(() => null);
        // A todo-scoped token is nobody on public operations not declared for it.
        if (caller?.todoScope && !op.todoScope) caller = null;
      } else {
        caller = await resolveCaller(base, request.headers);
        if (!caller) {
          await limitByIp();
          throw new ApiError("UNAUTHORIZED", "Missing, invalid or expired credential");
        }
      }
      if (caller) await limits.enforce(op.rateLimit ?? "default", credentialKey(caller), idHeader);
      else await limitByIp(op.rateLimit);
      if (caller && op.admin && !caller.isAdmin) throw new ApiError("FORBIDDEN", "Administrators only");
      const scope = caller?.todoScope;
      if (scope) checkTodoScope(op, scope, match.params.todoId ?? scope);
      const idempotencyKey = isIdempotent(op) ? readIdempotencyKey(request.headers) : undefined;

      const rawQuery = Object.fromEntries(url.searchParams);
      guardInput(match.params, "path");
      guardInput(rawQuery, "query");
      const params = op.params ? parseOrThrow(op.params, match.params, "path") : match.params;
      const query = op.query ? parseOrThrow(op.query, rawQuery, "query") : undefined;
      let body: unknown;
      let rawBody: unknown;
      if (op.body) rawBody = await readJsonBody(request);
      // Without a todoId in the path, the body's names the todo: refused before validation, so a
      // scoped token learns nothing about another todo's input (validation keeps the id as sent).
      if (scope && match.params.todoId === undefined) checkTodoScope(op, scope, (rawBody as { todoId?: unknown } | null | undefined)?.todoId);
      if (op.body) {
        guardInput(rawBody, "body");
        const echoed = echoedKeys(op.body, match.params);
        body = parseOrThrow(op.body, fillFromPath(rawBody, echoed, match.params), "body");
        checkEchoes(body, echoed, params as Record<string, unknown>);
      }
      const bodySocketId =
        rawBody && typeof rawBody === "object" && typeof (rawBody as { socketId?: unknown }).socketId === "string"
          ? (rawBody as { socketId: string }).socketId
          : undefined;
      const socketId = request.headers.get("x-socket-id")?.trim() || bodySocketId;

      const current = op;
      const run = async (): Promise<Response> => {
        const result = await current.handler({ caller: caller as Caller, params, query, body, socketId, request, requestId });
        if (result instanceof StreamedJson) return streamedJsonResponse(result, idHeader);
        const out = current.response.safeParse(result);
        if (!out.success) {
          log.error("response failed its schema", { op: current.id, requestId, issues: zodIssues(out.error, "response") });
          throw new Error("response schema mismatch");
        }
        return jsonResponse(out.data, 200, idHeader);
      };
      // Stored and replayed per credential once the input is valid (docs/api.md "Idempotent POSTs").
      if (idempotencyKey !== undefined && caller) {
        const claim = { scope: credentialKey(caller), key: idempotencyKey, fingerprint: requestFingerprint(request.method, `${url.pathname}${url.search}`, rawBody) };
        return recorded(op, await runIdempotent(idempotency, claim, idHeader, run));
      }
      return recorded(op, await run());
    } catch (err) {
      const { error, unexpected } = toApiError(err);
      if (unexpected) {
        log.error("unhandled error", { op: op?.id, requestId, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      }
      // Refused before any budget was counted (same-origin check, a failing resolver): the IP's.
      if (!idHeader.ratelimit && ip !== null) Object.assign(idHeader, (await limits.consume("anonymous", ipKey(ip))).headers);
      return recorded(op, errorResponse(error, idHeader));
    }
  };
}
