import type { TSnippet } from "../schemas/search.ts";

/**
 * A search snippet as runs of text, each marked whether it is a matched word. Ranges that overlap
 * an earlier one, run past the text or are empty are left out: the text is shown whole regardless.
 */
export function snippetParts(snippet: TSnippet): { text: string; hit: boolean }[] {
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  for (const r of snippet.highlights) {
    if (r.start < at || r.end > snippet.text.length || r.end <= r.start) continue;
    if (r.start > at) parts.push({ text: snippet.text.slice(at, r.start), hit: false });
    parts.push({ text: snippet.text.slice(r.start, r.end), hit: true });
    at = r.end;
  }
  if (at < snippet.text.length || parts.length === 0) parts.push({ text: snippet.text.slice(at), hit: false });
  return parts;
}

/**
 * Whether a query has a word to search for (a letter or a digit in any script). The search
 * operations match words, so a query of only punctuation or spaces is not sent.
 */
export function hasSearchWord(query: string): boolean {
  return /[\p{L}\p{N}]/u.test(query);
}
