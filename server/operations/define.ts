import type { z } from "zod";
import type { Caller, Credential } from "../auth/caller.ts";
import type { ErrorCode } from "../http/errors.ts";
import type { RatePolicyName } from "../http/rate-limit.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type AnyObject = z.ZodObject<z.ZodRawShape>;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export type OperationContext<P, Q, B, Auth> = {
  caller: Auth extends "none" ? Caller | null : Caller;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /** Socket.IO connection id from `X-Socket-Id` or a `socketId` body field, for subscribe operations. */
  socketId: string | undefined;
  request: Request;
  requestId: string;
};

export type OperationDef<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
  Auth extends readonly Credential[] | "none" = readonly Credential[] | "none",
> = {
  /** The spec's operationId, e.g. `project_get`. */
  id: string;
  method: HttpMethod;
  /** Path below the base, with `{param}` placeholders, e.g. `/projects/{projectId}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Credential kinds (and so base paths) that serve it; "none" serves it on every base without a credential. */
  auth: Auth;
  /** Administrators only (course console). */
  admin?: boolean;
  /**
   * Whether a todo-scoped (mayfly) token may call it: "todo" allows it when the path's `todoId`
   * (or, without one, the body's) is the token's todo. Absent: refused with 403, so an operation
   * that forgets to declare is closed to scoped tokens.
   */
  todoScope?: "todo";
  /** Rate-limit policy (server/http/rate-limit.ts RATE_POLICIES); absent means "default". */
  rateLimit?: RatePolicyName;
  /** May change state (default: every method but GET); such cookie calls must be same-origin. Set on a GET that writes. */
  changesState?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Error codes the handler can answer beyond those the OpenAPI document derives from the
   * operation's shape (see server/http/openapi.ts), e.g. `["CONFLICT"]`, or `["NOT_FOUND"]` for ids in a body.
   */
  errors?: readonly ErrorCode[];
  /** Success body; everything the handler returns passes through it, so unlisted fields (hashes, secrets) never leave. */
  response: R;
  handler: (ctx: OperationContext<P, Q, B, Auth>) => Promise<z.input<R>>;
};

export type AnyOperation = OperationDef<
  AnyObject | undefined,
  AnyObject | undefined,
  z.ZodType | undefined,
  z.ZodType,
  readonly Credential[] | "none"
>;

/**
 * What `defineOperation` returns: the registry's `AnyOperation`, plus (types only, nothing at run
 * time) the operation's id and the shapes of its input and answer, from which the UI's typed
 * client derives its types (lib/api/types.ts, docs/api.md "Typed client").
 */
export type TypedOperation<Id extends string, P, Q, B, R, Auth> = AnyOperation & {
  readonly "~types"?: { id: Id; params: P; query: Q; body: B; response: R; auth: Auth };
};

export function defineOperation<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
  const Auth extends readonly Credential[] | "none" = readonly Credential[],
  const Id extends string = string,
>(def: OperationDef<P, Q, B, R, Auth> & { id: Id }): TypedOperation<Id, P, Q, B, R, Auth> {
  return def as unknown as TypedOperation<Id, P, Q, B, R, Auth>;
}

export function changesState(op: Pick<AnyOperation, "method" | "changesState">): boolean {
  return op.changesState ?? op.method !== "GET";
}

/**
 * Every credential kind, device tokens included. Devices (bridges) get reads and the work on
 * todos, not the management of projects, settings or the account (docs/api.md "Device tokens").
 */
export const ANY_CREDENTIAL = ["apiKey", "session", "device"] as const;
/** People and scripts, not device tokens: account, keys, billing, project management. */
export const USER_CREDENTIAL = ["apiKey", "session"] as const;
