import { z } from "zod";
import { buildOpenApi } from "../../http/openapi.ts";
import { defineOperation } from "../define.ts";

let cached: Record<string, unknown> | undefined;

export default defineOperation({
  id: "meta_openapi",
  method: "GET",
  path: "/openapi.json",
  tag: "Meta",
  summary: "This API's OpenAPI 3.1 document, generated from the operation registry",
  description: "Generated from the operation registry, so it lists every operation with its parameters, schemas, credentials and declared statuses. No credential needed.",
  auth: "none",
  response: z.record(z.string(), z.unknown()),
  handler: async () => {
    // Imported here, not at the top: the registry imports this file.
    const { operations } = await import("../index.ts");
    cached ??= buildOpenApi(operations);
    return cached;
  },
});
