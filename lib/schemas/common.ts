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

export const MAX_LIMIT = 200;
/**
 * Every limit-like parameter (`limit`, `messageLimit`, future page sizes): default 50; any integer
 * above 200, however large, is clamped to 200 (CONVENTIONS.md); 0, negatives, fractions and
 * non-numbers are 400.
 */
export const ZLimit = z.coerce
  .number()
  .transform((n) => (Number.isInteger(n) && n > MAX_LIMIT ? MAX_LIMIT : n))
  .pipe(z.number().int().min(1).max(MAX_LIMIT))
  .default(50)
  .describe("Page size: default 50, larger than 200 is clamped to 200");

/**
 * The `nextCursor` of a list ordered newest first by a time and then by id: `<ms>:<id>` of the
 * last item received (server/db/keyset.ts), opaque to clients.
 */
export const ZKeysetCursor = z
  .string()
  .regex(/^[0-9]{1,16}:[A-Za-z0-9_-]{1,128}$/, "must be the nextCursor of a previous page")
  .optional()
  .describe("The `nextCursor` of the previous page (opaque)");

// ───────────── dates ─────────────

/** 9999-12-31T23:59:59.999Z: the last instant every store and every client can represent. */
export const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An instant a client sends (ms since the epoch): 1970 up to the end of year 9999. Every date input uses it. */
export const ZEpochMs = z
  .number()
  .int()
  .min(0, "must not be before 1970")
  .max(MAX_EPOCH_MS, "must not be after the year 9999")
  .describe("Milliseconds since the Unix epoch, 0 (1970) to 253402300799999 (end of 9999)");

/**
 * ZEpochMs in a query string (cursors, ranges). A blank value (`?cursor=`) is refused like any
 * other non-number: coerced, it would be 0 (1970), a valid instant that silently empties a page.
 */
export const ZEpochMsQuery = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? Number.NaN : v),
  z.coerce.number().pipe(ZEpochMs),
);

/**
 * Stored date → response timestamp. A value out of range (a row written before the bounds existed,
 * or by hand: the driver reads years past 9999 as an invalid Date) becomes the nearest bound, so a
 * serializer can never produce a value its schema refuses and one bad row never fails a list.
 */
export function epochMs(d: Date): number {
  const t = d.getTime();
  if (Number.isNaN(t)) return MAX_EPOCH_MS;
  return Math.min(Math.max(t, 0), MAX_EPOCH_MS);
}

export function epochMsOrNull(d: Date | null | undefined): number | null {
  return d ? epochMs(d) : null;
}

// ───────────── free-form JSON ─────────────

export const MAX_JSON_DEPTH = 16;
export const MAX_JSON_CHARS = 64 * 1024;

/** Nesting depth of a JSON value (a scalar is 0), counted without recursion; stops past `limit`. */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/**
 * Every free-form JSON object a client sends (`metadata`, …): at most 16 levels deep and 64 K
 * characters as JSON. Its strings and keys follow the rules of every input string (no NUL, no lone
 * surrogate: server/http/input-guard.ts).
 */
export const ZJsonObject = z
  .record(z.string(), z.unknown())
  .superRefine((v, ctx) => {
    if (jsonDepth(v, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      ctx.addIssue({ code: "custom", message: `must be nested at most ${MAX_JSON_DEPTH} levels deep` });
      return;
    }
    if (JSON.stringify(v).length > MAX_JSON_CHARS) ctx.addIssue({ code: "custom", message: `must be at most ${MAX_JSON_CHARS} characters as JSON` });
  })
  .describe(`Free-form JSON object: at most ${MAX_JSON_DEPTH} levels deep and ${MAX_JSON_CHARS} characters as JSON`);

// ───────────── text ─────────────

/**
 * What no input string may hold, anywhere (names, content, path and query values, JSON keys and
 * values): NUL (PostgreSQL text cannot store it) and lone UTF-16 surrogates (not text; they cannot
 * round-trip through UTF-8). Everything else, RTL marks, zero-width characters, emoji and CJK
 * included, is stored and returned unchanged. The pipeline applies it to every input.
 */
export function unsafeTextReason(s: string): string | null {
  if (s.includes("\u0000")) return "must not contain NUL characters (U+0000)";
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)) return "must not contain unpaired UTF-16 surrogates";
  return null;
}

export type TTimestamp = z.infer<typeof ZTimestamp>;
