import type { AnyOperation, OperationTypesById } from "../http/define.ts";
import { apiKeyOperations } from "./api-keys/index.ts";
import { courseOperations } from "./courses/index.ts";
import { deviceOperations } from "./devices/index.ts";
import { billingOperations } from "./billing/index.ts";
import { metaOperations } from "./meta/index.ts";
import { projectOperations } from "./projects/index.ts";
import { reportOperations } from "./reports/index.ts";
import { searchOperations } from "./search/index.ts";
import { noteOperations } from "./notes/index.ts";
import { settingsOperations } from "./settings/index.ts";
import { teamOperations } from "./teams/index.ts";
import { todoOperations } from "./todos/index.ts";
import { userOperations } from "./users/index.ts";

/** The one operation registry: every operation of every base, declared once (one list per domain). */
export const operations: readonly AnyOperation[] = [
  ...userOperations,
  ...apiKeyOperations,
  ...projectOperations,
  ...todoOperations,
  ...searchOperations,
  ...noteOperations,
  ...settingsOperations,
  ...teamOperations,
  ...deviceOperations,
  ...billingOperations,
  ...courseOperations,
  ...reportOperations,
  ...metaOperations(() => operations),
];

/**
 * Every operation with its types (read from the domain lists: `operations` itself refers to
 * itself through meta_openapi, so its element type is not inferred). Typed callers read their types from this union: the bridge's `call`
 * (below) and the UI's client (lib/api/types.ts).
 */
export type TypedRegistryOperation =
  | (typeof userOperations)[number]
  | (typeof apiKeyOperations)[number]
  | (typeof projectOperations)[number]
  | (typeof todoOperations)[number]
  | (typeof searchOperations)[number]
  | (typeof noteOperations)[number]
  | (typeof settingsOperations)[number]
  | (typeof teamOperations)[number]
  | (typeof deviceOperations)[number]
  | (typeof billingOperations)[number]
  | (typeof courseOperations)[number]
  | (typeof reportOperations)[number]
  | ReturnType<typeof metaOperations>[number];

/** operationId → params, query, body and response types, for the bridge's typed `call`. */
type RegistryTypes = OperationTypesById<TypedRegistryOperation>;

declare module "../http/bridge.ts" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RegisteredOperations extends RegistryTypes {}
}
