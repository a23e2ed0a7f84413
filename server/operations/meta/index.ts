import type { AnyOperation } from "../../http/define.ts";
import { openapiGet } from "./openapi-get.ts";

/** Operations about the registry itself; `registry` returns the whole list they describe. */
export function metaOperations(registry: () => readonly AnyOperation[]) {
  return [openapiGet(registry)] satisfies AnyOperation[];
}
