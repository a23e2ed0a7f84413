import { z } from "zod";
import { buildOpenApi } from "../../http/openapi.ts";
import { defineOperation, type AnyOperation } from "../../http/define.ts";

/**
 * `meta_openapi` for a registry. The registry hands itself in (`registry` is read on the first
 * request, once the list exists), so this file does not import the registry that lists it.
 */
export function openapiGet(registry: () => readonly AnyOperation[]) {
  let cached: Record<string, unknown> | undefined;
  return defineOperation({
    id: "meta_openapi",
    method: "GET",
    path: "/openapi.json",
    tag: "Meta",
    summary: "This API's OpenAPI 3.1 document, generated from the operation registry",
    description: "Generated from the operation registry, so it lists every operation with its parameters, schemas, credentials and declared statuses. No credential needed.",
    auth: "none",
    response: z.record(z.string(), z.unknown()),
    handler: async () => {
      cached ??= buildOpenApi(registry());
      return cached;
    },
  });
}
