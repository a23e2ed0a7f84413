// The typed client's types, derived (types only: nothing of the server reaches the browser bundle)
// from the operation registry: each `defineOperation` carries its id and zod schemas as a phantom
// type (server/http/define.ts `TypedOperation`), and this file reads them back.
import type { z } from "zod";
import type { TypedRegistryOperation } from "@/server/operations/index.ts";
import type { ErrorCode } from "@/server/http/errors.ts";

export type { ErrorCode };

type Registry = TypedRegistryOperation;
type Carried<O> = O extends { readonly "~types"?: infer T } ? NonNullable<T> : never;
type AllOperations = Carried<Registry>;

/** Served on the cookie base (/cookie/v1): the browser's session may call it. */
type OnCookieBase<T> = T extends { auth: infer A }
  ? A extends "none"
    ? T
    : A extends readonly (infer C)[]
      ? "session" extends C
        ? T
        : never
      : never
  : never;
type CookieOperations = OnCookieBase<AllOperations>;

/** Every operationId the browser may call. */
export type OperationId = CookieOperations["id"];
type Op<Id extends OperationId> = Extract<CookieOperations, { id: Id }>;

type In<S> = S extends z.ZodType ? z.input<S> : undefined;
/** A part of the input: absent without a schema, optional when every field of it is. */
type Part<K extends string, S> = S extends z.ZodType ? (Record<never, never> extends z.input<S> ? { [P in K]?: z.input<S> } : { [P in K]: z.input<S> }) : { [P in K]?: undefined };

export type OperationParams<Id extends OperationId> = In<Op<Id>["params"]>;
export type OperationQuery<Id extends OperationId> = In<Op<Id>["query"]>;
export type OperationBody<Id extends OperationId> = In<Op<Id>["body"]>;
/** The success body, as the response schema outputs it (and JSON carries it). */
export type OperationResult<Id extends OperationId> = Op<Id>["response"] extends z.ZodType ? z.output<Op<Id>["response"]> : never;

export type OperationInput<Id extends OperationId> = Part<"params", Op<Id>["params"]> & Part<"query", Op<Id>["query"]> & Part<"body", Op<Id>["body"]>;

/** `call(id)` when the operation needs no input, `call(id, input)` when it does. */
export type InputArgs<Id extends OperationId> = Record<never, never> extends OperationInput<Id> ? [input?: OperationInput<Id>] : [input: OperationInput<Id>];

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
