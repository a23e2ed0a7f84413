import type { AnyOperation } from "../../http/define.ts";
import apiKeyCreate from "./api-key-create.ts";
import apiKeyDelete from "./api-key-delete.ts";
import apiKeyGet from "./api-key-get.ts";
import apiKeyGetDefault from "./api-key-get-default.ts";
import apiKeyList from "./api-key-list.ts";
import apiKeySetDefault from "./api-key-set-default.ts";
import apiKeyValidate from "./api-key-validate.ts";

export const apiKeyOperations = [apiKeyList, apiKeyCreate, apiKeyGet, apiKeyDelete, apiKeyGetDefault, apiKeySetDefault, apiKeyValidate] satisfies AnyOperation[];
