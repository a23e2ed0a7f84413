import { z } from "zod";
import { ZId, ZTimestamp } from "./common.ts";

export const ZApiKeyName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, "letters, digits, space, _ . - only, starting with a letter or digit");

export const ZApiKey = z
  .object({
    id: ZId,
    name: z.string(),
    key: z.string().describe("The full key in the response that creates it, and `tsk_…` plus its last four characters everywhere else"),
    isDefault: z.boolean(),
    createdAt: ZTimestamp,
    lastUsedAt: ZTimestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

export const ZApiKeyNameInput = z.object({ name: ZApiKeyName }).meta({ id: "ApiKeyNameInput" });

/** apiKey_create's body. The service refuses `default` (any case); the `not` says so in the JSON Schema. */
export const ZApiKeyCreateInput = z
  .object({
    name: ZApiKeyName.meta({
      not: { pattern: "^\\s*[Dd][Ee][Ff][Aa][Uu][Ll][Tt]\\s*$" },
      description: "Unique among the caller's keys (409 otherwise); `default`, in any case, is reserved for the key apiKey_getDefault creates (400)",
    }),
  })
  .meta({ id: "ApiKeyCreateInput" });
export const ZApiKeyValidation = z
  .object({
    valid: z.literal(true),
    keyId: ZId,
    name: z.string(),
    isDefault: z.boolean(),
    userId: ZId,
    email: z.string(),
  })
  .meta({ id: "ApiKeyValidation" });

export type TApiKey = z.infer<typeof ZApiKey>;
