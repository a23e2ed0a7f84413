import type { AnyOperation } from "../define.ts";
import openapiGet from "./openapi-get.ts";

export const metaOperations = [openapiGet] satisfies AnyOperation[];
