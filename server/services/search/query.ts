import { Prisma } from "../../db/generated/client.ts";
import { badRequest } from "../../http/errors.ts";
import { MAX_QUERY_WORDS, type TSnippet } from "../../../lib/schemas/search.ts";

// The text-search query language shared by todo_searchMessages and todo_searchUnified.
//
// `q` is split on white space into words. Each word must occur, either as an English stem
// ("running" finds "runs") or as the word itself in any language ('simple': stop words, names,
// other languages); the last word also matches as a prefix ("deplo" finds "deployment"), as people
// type. A word the text-search parser splits further ("e-mail", "foo.bar") matches as a phrase.
// The stored side is the generated column Message."searchVector" (prisma/migrations/*search_fts*).

/** The words of `q` that can match: white-space separated, each with a letter or a digit. 400 when none is left. */
export function queryWords(q: string): string[] {
  const words = q
    .split(/\s+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, MAX_QUERY_WORDS);
  if (words.length === 0) throw badRequest("q has no word to search for", [{ path: "query.q", message: "must contain a letter or a digit", code: "invalid_format" }]);
  return words;
}

/** A word as one quoted to_tsquery operand: the parser splits it, never the tsquery syntax. */
function literal(word: string, prefix: boolean): string {
  return `'${word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${prefix ? ":*" : ""}`;
}

/** The tsquery of the words (see above), as a SQL expression; `prefixLast: false` matches the last word whole too. */
export function tsquerySql(words: string[], { prefixLast = true }: { prefixLast?: boolean } = {}): Prisma.Sql {
  const parts = words.map((w, i) => {
    const lit = literal(w, prefixLast && i === words.length - 1);
    const en = Prisma.sql`to_tsquery('english'::regconfig, ${lit})`;
    const simple = Prisma.sql`to_tsquery('simple'::regconfig, ${lit})`;
    // Folded to one tsquery when the statement is planned. The same lexeme twice ("deploy",
    // "term7x:*") made GIN look it up twice: about a fifth more CPU for a prefix.
    return Prisma.sql`(CASE WHEN ${en} = ${simple} THEN ${simple} ELSE ${en} || ${simple} END)`;
  });
  return Prisma.join(parts, " && ");
}

// ts_headline marks matches with STX … ETX (control characters, removed from the text first), and
// splitSnippet turns them into plain text plus offsets: no markup ever reaches a client. Its parser
// would drop anything that looks like an HTML tag from the excerpt, so `<` travels as EOT and
// comes back: a message about `<div>` keeps its text.
const START = "\u0002";
const STOP = "\u0003";
const LT = "\u0004";
export const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, MaxWords=35, MinWords=15, ShortWord=2`;

/**
 * ts_headline of a content column for a tsquery, in the STX/ETX form that splitSnippet reads.
 * English first (it marks "runs" for "run"); when that marks nothing, 'simple' (a prefix of the
 * word as typed: "irrigat" marks "irrigation", whose English stem "irrig" the prefix misses).
 * `OFFSET 0` keeps the English headline a subquery computed once per row: pulled up, it would be
 * computed twice (the test and the result).
 */
export function headlineSql(content: Prisma.Sql, tsquery: Prisma.Sql): Prisma.Sql {
  const doc = Prisma.sql`translate(left(${content}, 100000), E'\\x02\\x03\\x04<', E'   \\x04')`;
  return Prisma.sql`(SELECT CASE WHEN strpos(en.h, E'\\x02') > 0 THEN en.h ELSE ts_headline('simple'::regconfig, ${doc}, ${tsquery}, ${HEADLINE_OPTIONS}) END
    FROM (SELECT ts_headline('english'::regconfig, ${doc}, ${tsquery}, ${HEADLINE_OPTIONS}) AS h OFFSET 0) en)`;
}

/** ts_headline's STX/ETX-marked text → plain text and [start, end) ranges (UTF-16 offsets). */
export function splitSnippet(marked: string): TSnippet {
  let text = "";
  const highlights: TSnippet["highlights"] = [];
  let open = -1;
  for (const ch of marked) {
    if (ch === START) {
      if (open < 0) open = text.length;
    } else if (ch === STOP) {
      if (open >= 0 && text.length > open) highlights.push({ start: open, end: text.length });
      open = -1;
    } else text += ch === LT ? "<" : ch;
  }
  if (open >= 0 && text.length > open) highlights.push({ start: open, end: text.length });
  return { text: text.trim() === "" ? "" : text, highlights };
}
