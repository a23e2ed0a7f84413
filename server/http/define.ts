import type { z } from "zod";
import { BASE_CREDENTIAL, BASE_PATH, type Base, type Caller, type Credential } from "../auth/caller.ts";
import type { ErrorCode } from "./errors.ts";
import type { RatePolicyName } from "./rate-limit.ts";
import type { StreamedJson } from "./streamed.ts";

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
  /**
   * Accepts an `Idempotency-Key` header: the first answer is stored per credential for 24 h and
   * replayed (server/http/idempotency.ts). Default: true for a POST that needs a credential (keys
   * are per credential), false otherwise. Set false on a POST whose answer holds a shown-once
   * secret or that must run on every call.
   */
  idempotent?: boolean;
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
  /** The answer, or a StreamedJson (./streamed.ts) whose stream adds up to it. */
  handler: (ctx: OperationContext<P, Q, B, Auth>) => Promise<z.input<R> | StreamedJson>;
};

export type AnyOperation = OperationDef<
  AnyObject | undefined,
  AnyObject | undefined,
  z.ZodType | undefined,
  z.ZodType,
  readonly Credential[] | "none"
>;

type Input<S> = S extends z.ZodType ? z.input<S> : undefined;
type Output<S> = S extends z.ZodType ? z.output<S> : never;

/** An operation's types as a caller sees them: path, query and body as sent, the answer as received. */
export type OperationTypes = { params: unknown; query: unknown; body: unknown; response: unknown };

/**
 * What defineOperation returns: the registry's `AnyOperation`, keeping (types only, nothing at run
 * time) its id, zod schemas and credentials. Typed callers read them back: the bridge's `call`
 * (server/http/bridge.ts, through OperationTypesById) and the UI's client (lib/api/types.ts).
 */
export type TypedOperation<Id extends string, P, Q, B, R, Auth> = AnyOperation & {
  readonly id: Id;
  readonly "~types"?: { id: Id; params: P; query: Q; body: B; response: R; auth: Auth };
};

type Carried = { params: unknown; query: unknown; body: unknown; response: unknown };

/** operationId → OperationTypes, for a union of operations made by defineOperation. */
export type OperationTypesById<O extends { readonly id: string; readonly "~types"?: Carried }> = {
  [Op in O as Op["id"]]: {
    params: Input<NonNullable<Op["~types"]>["params"]>;
    query: Input<NonNullable<Op["~types"]>["query"]>;
    body: Input<NonNullable<Op["~types"]>["body"]>;
    response: Output<NonNullable<Op["~types"]>["response"]>;
  };
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

/** The bases (and so base paths) that serve an operation: those whose credential it accepts, or all for "none". */
export function basesOf(op: Pick<AnyOperation, "auth">): Base[] {
  return (Object.keys(BASE_PATH) as Base[]).filter((b) => op.auth === "none" || op.auth.includes(BASE_CREDENTIAL[b]));
}

export function changesState(op: Pick<AnyOperation, "method" | "changesState">): boolean {
  return op.changesState ?? op.method !== "GET";
}

export function isIdempotent(op: Pick<AnyOperation, "method" | "auth" | "idempotent">): boolean {
  return op.idempotent ?? (op.method === "POST" && op.auth !== "none");
}

/**
 * Every credential kind, device tokens included. Devices (bridges) get reads and the work on
 * todos, not the management of projects, settings or the account (docs/api.md "Device tokens").
 */
export const ANY_CREDENTIAL = ["apiKey", "session", "device"] as const;
/** People and scripts, not device tokens: account, keys, billing, project management. */
export const USER_CREDENTIAL = ["apiKey", "session"] as const;
