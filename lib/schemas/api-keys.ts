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
