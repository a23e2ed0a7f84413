import type { AnyOperation } from "./define.ts";
import apiKeyCreate from "./api-keys/api-key-create.ts";
import apiKeyDelete from "./api-keys/api-key-delete.ts";
import apiKeyGet from "./api-keys/api-key-get.ts";
import apiKeyGetDefault from "./api-keys/api-key-get-default.ts";
import apiKeyList from "./api-keys/api-key-list.ts";
import apiKeySetDefault from "./api-keys/api-key-set-default.ts";
import apiKeyValidate from "./api-keys/api-key-validate.ts";
import openapiGet from "./meta/openapi-get.ts";
import projectCreate from "./projects/project-create.ts";
import projectDelete from "./projects/project-delete.ts";
import projectGet from "./projects/project-get.ts";
import projectList from "./projects/project-list.ts";
import projectSubscribe from "./projects/project-subscribe.ts";
import projectUpdate from "./projects/project-update.ts";
import userProfile from "./users/user-profile.ts";

/** The one operation registry: every operation of every base, declared once. */
export const operations: readonly AnyOperation[] = [
  userProfile,
  apiKeyList,
  apiKeyCreate,
  apiKeyGet,
  apiKeyDelete,
  apiKeyGetDefault,
  apiKeySetDefault,
  apiKeyValidate,
  projectList,
  projectCreate,
  projectGet,
  projectUpdate,
  projectDelete,
  projectSubscribe,
  openapiGet,
];
