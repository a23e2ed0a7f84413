// List lines: what counts as a list item in a message (`- x`, `* x`, `• x`, `1. x`, `2) x`, `[ ] x`).
// Shared by the agents (server/agent), which turn lists into checklists, and the chat (components/todo),
// which shows such a list once, as the checklist. A hand-written scanner, linear in the input: it
// reads user content, so no backtracking regex.

/** A line longer than this is prose, never a list item. */
export const MAX_LIST_LINE = 1_000;
/** At most this many checklist items per message, and per reply. */
export const MAX_ITEMS = 100;

/** JavaScript's `\s`, by code unit. */
export function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * The text after a list marker (`-`, `*`, `•`, `1.`, `2)`, `[ ]`, `[]`) and at least one space,
 * trimmed; null when the line is not a list line (or longer than MAX_LIST_LINE). One pass.
 */
export function listLine(line: string): string | null {
  if (line.length > MAX_LIST_LINE) return null;
  let i = 0;
  while (i < line.length && isSpace(line.charCodeAt(i))) i++;
  const c = line.charCodeAt(i);
  if (c === 45 /* - */ || c === 42 /* * */ || c === 0x2022 /* • */) {
    i++;
  } else if (isDigit(c)) {
    while (i < line.length && isDigit(line.charCodeAt(i))) i++;
    const end = line.charCodeAt(i);
    if (end !== 46 /* . */ && end !== 41 /* ) */) return null;
    i++;
  } else if (c === 91 /* [ */) {
    i++;
    if (line.charCodeAt(i) === 32) i++;
    if (line.charCodeAt(i) !== 93 /* ] */) return null;
    i++;
  } else {
    return null;
  }
  // At least one space after the marker, and something after that.
  if (i >= line.length - 1 || !isSpace(line.charCodeAt(i))) return null;
  return line.slice(i).trim();
}

/** The list items of one text, in order (at most MAX_ITEMS). Linear in the text. */
export function listItems(text: string): string[] {
  const out: string[] = [];
  for (let start = 0; start <= text.length && out.length < MAX_ITEMS; ) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const item = end - start > MAX_LIST_LINE ? null : listLine(text.slice(start, end));
    if (item) out.push(item);
    start = end + 1;
  }
  return out;
}

/** A list line's item as a checklist item: its text without a leading Markdown checkbox (`[ ]`, `[x]`). */
export function checklistText(item: string): string {
  let i = 0;
  if (item.charCodeAt(0) === 91 /* [ */) {
    const close = item.indexOf("]");
    if (close > 0 && close <= 2 && /^\[[ xX]?\]$/.test(item.slice(0, close + 1))) i = close + 1;
  }
  return item.slice(i).trim();
}

/**
 * The text without the list lines (outside fenced code) whose checklist text is one of `items`:
 * an agent's reply whose list became checklist blocks shows the list once, as the checklist.
 */
export function withoutListOf(text: string, items: ReadonlySet<string>): string {
  if (items.size === 0) return text;
  let fenced = false;
  const kept: string[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trimStart();
    if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) fenced = !fenced;
    const item = fenced ? null : listLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    if (item !== null && items.has(checklistText(item))) continue;
    kept.push(line);
  }
  return kept.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}
