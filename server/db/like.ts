/**
 * A `contains` filter for Prisma that matches the text as typed. Prisma sends `contains` as
 * `LIKE '%' || text || '%'` without escaping, so `%` and `_` in a user's search were wildcards
 * (`50%` matched everything after "50", `a_b` matched "axb"). PostgreSQL's LIKE escape character
 * is the backslash by default, on PGlite as well.
 */
export function containsText(text: string): { contains: string } {
  return { contains: text.replace(/[\\%_]/g, (c) => `\\${c}`) };
}
