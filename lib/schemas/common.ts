import { z } from "zod";

// Shared by the API (validation, OpenAPI) and the UI (form validation).

/** Integer milliseconds since the epoch (CONVENTIONS.md "Shapes"). */
export const ZTimestamp = z.number().int().describe("Milliseconds since the Unix epoch");

/** Database ids are cuids; anything else can never match, so it is a 404 rather than a 400. */
export const ZId = z.string().min(1).max(128);

export const ZName = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

/**
 * A partial update: every field optional, at least one given. The refine checks it; the `anyOf`
 * says it in the JSON Schema (a refine is invisible there), both from the same list of fields.
 */
export function atLeastOne<T extends z.ZodObject>(schema: T, message: string): T {
  const keys = Object.keys(schema.shape);
  return schema
    .refine((v) => keys.some((k) => (v as Record<string, unknown>)[k] !== undefined), { message })
    .meta({ anyOf: keys.map((k) => ({ required: [k] })) });
}
export const ZNull = z.null().describe("JSON null");

export const ZSuccess = z.object({ success: z.literal(true) }).meta({ id: "SuccessResponse" });

export const ZEmptyInput = z.object({}).meta({ id: "EmptyInput" });

export const ZSocketId = z.string().min(1).max(64).optional().describe("Socket.IO connection id; the X-Socket-Id header may carry it instead");

export const ZLimit = z.coerce.number().int().min(1).default(50).transform((n) => Math.min(n, 200))
  .describe("Page size: default 50, larger than 200 is clamped to 200");

export type TTimestamp = z.infer<typeof ZTimestamp>;
