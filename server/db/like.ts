/**
 * A `contains` filter for Prisma that matches the text as typed. Prisma sends `contains` as
 * `LIKE '%' || text || '%'` without escaping, so `%` and `_` in a user's search were wildcards
 * (`50%` matched everything after "50", `a_b` matched "axb"). PostgreSQL's LIKE escape character
 * is the backslash by default, on PGlite as well.
 */
export function containsText(text: string): { contains: string } {
  return { contains: escapeLike(text) };
}

/** The text with LIKE's wildcards and its escape character escaped, to be matched as typed. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern for raw SQL that matches rows containing the text as typed. */
export function likePattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
