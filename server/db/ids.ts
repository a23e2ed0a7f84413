import { randomBytes } from "node:crypto";

/**
 * A new row id for rows written in raw SQL. The tables' ids are cuids that Prisma's client makes
 * (`@default(cuid())`, not a database default), so raw inserts bring their own: a "c", the time
 * in base 36 and 80 random bits, the same alphabet and about the same length as a cuid.
 */
export function newRowId(): string {
  return `c${Date.now().toString(36)}${randomBytes(10).toString("hex")}`;
}
