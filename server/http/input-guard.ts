import { unsafeTextReason } from "../../lib/schemas/common.ts";
import { ApiError, type Issue } from "./errors.ts";

/** Deeper than any schema of ours nests; free-form JSON fields have their own, tighter bound (ZJsonObject). */
export const MAX_INPUT_DEPTH = 64;
const MAX_ISSUES = 10;

/**
 * The rules every input obeys whatever its schema says, checked on the raw path, query and body
 * before zod sees them, so every operation (present or future) and every free-form JSON field
 * gets them: no string or object key holds NUL or a lone surrogate (lib/schemas/common.ts
 * `unsafeTextReason`), no number overflows to Infinity, and nothing nests deeper than MAX_INPUT_DEPTH. Iterative, so a hostile
 * depth cannot overflow the stack. Throws 400 with one issue per offending value.
 */
export function guardInput(value: unknown, location: "path" | "query" | "body"): void {
  const issues: Issue[] = [];
  const stack: { v: unknown; path: string[] }[] = [{ v: value, path: [] }];
  while (stack.length && issues.length < MAX_ISSUES) {
    const { v, path } = stack.pop()!;
    const where = [location, ...path].join(".");
    if (typeof v === "string") {
      const reason = unsafeTextReason(v);
      if (reason) issues.push({ path: where, message: reason, code: "invalid_characters" });
      continue;
    }
    if (typeof v === "number") {
      // JSON.parse turns a number past ±1.8e308 (`1e400`) into ±Infinity, which a free-form JSON
      // field (`metadata`) would store as null: refused here, as every typed number field does.
      if (!Number.isFinite(v)) issues.push({ path: where, message: "must be a finite number (at most about 1.8e308)", code: "too_big" });
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      issues.push({ path: where, message: `nested deeper than ${MAX_INPUT_DEPTH} levels`, code: "too_deep" });
      continue;
    }
    for (const key of Object.keys(v)) {
      const reason = unsafeTextReason(key);
      // The key itself may be unprintable: name it by position, not by its text.
      if (reason) issues.push({ path: [location, ...path, "<key>"].join("."), message: `keys ${reason}`, code: "invalid_characters" });
      else stack.push({ v: (v as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  if (issues.length)
    throw new ApiError("BAD_REQUEST", `Invalid ${location}: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, { issues });
}
