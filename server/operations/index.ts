import type { AnyOperation } from "./define.ts";
import { apiKeyOperations } from "./api-keys/index.ts";
import { metaOperations } from "./meta/index.ts";
import { projectOperations } from "./projects/index.ts";
import { settingsOperations } from "./settings/index.ts";
import { todoOperations } from "./todos/index.ts";
import { userOperations } from "./users/index.ts";

/** The one operation registry: every operation of every base, declared once (one list per domain). */
export const operations = [
  ...userOperations,
  ...apiKeyOperations,
  ...projectOperations,
  ...todoOperations,
  ...settingsOperations,
  ...metaOperations,
] satisfies readonly AnyOperation[];
