// The built-in agent's answer: deterministic, offline, and shaped like a real one (text plus an
// actionable checklist when the user wrote a list).
//
// Everything here reads user content, so it is linear in the input (a hand-written line scanner,
// no backtracking regex), looks at most MAX_LIST_LINE characters of a line for a list item, and the
// async entry points hand the event loop back every SCAN_SLICE characters, so a huge message never
// holds up other requests.

/** A line longer than this is prose, never a list item. */
export const MAX_LIST_LINE = 1_000;
/** At most this many checklist items per message, and per reply. */
export const MAX_ITEMS = 100;
/** Characters scanned between two yields to the event loop. */
export const SCAN_SLICE = 64 * 1024;

export type LocalReply = { text: string; checklist: string[] };

/** JavaScript's `\s`, by code unit. */
function isSpace(c: number): boolean {
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

/** Lets the event loop run what waits (other requests) before the next slice of work. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `onLine(text, start, end)` for every line of every text, in order, until it returns false;
 * every SCAN_SLICE characters it yields to the event loop.
 */
async function eachLine(texts: readonly string[], onLine: (index: number, text: string, start: number, end: number) => boolean): Promise<void> {
  let budget = SCAN_SLICE;
  for (let t = 0; t < texts.length; t++) {
    const text = texts[t]!;
    for (let start = 0; start <= text.length; ) {
      let end = text.indexOf("\n", start);
      if (end === -1) end = text.length;
      if (!onLine(t, text, start, end)) return;
      budget -= end - start + 1;
      if (budget <= 0) {
        budget = SCAN_SLICE;
        await yieldToLoop();
      }
      start = end + 1;
    }
  }
}

/** `listItems` of each text, concatenated (at most MAX_ITEMS per text and MAX_ITEMS in all), yielding between slices. */
export async function listItemsOf(texts: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  let current = -1;
  let inText = 0;
  await eachLine(texts, (index, text, start, end) => {
    if (index !== current) {
      current = index;
      inText = 0;
    }
    if (inText < MAX_ITEMS && end - start <= MAX_LIST_LINE) {
      const item = listLine(text.slice(start, end));
      if (item) {
        out.push(item);
        inText++;
      }
    }
    return out.length < MAX_ITEMS;
  });
  return out;
}

/** A line's trimmed text, cut to 157 characters and "…" when longer than 160, without copying a long line. */
function headlineOf(text: string, start: number, end: number): string {
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return end - start > 160 ? `${text.slice(start, start + 157)}…` : text.slice(start, end);
}

function replyText(checklist: string[], topic: string): string {
  return checklist.length
    ? `I turned your list into a checklist of ${checklist.length} item${checklist.length === 1 ? "" : "s"}${topic ? ` for "${topic}"` : ""}. Check each one off as it is done, and tell me where you want help first.`
    : `On "${topic}": first I would pin down what done looks like, then split the work into small steps, and start with the one that unblocks the rest. Tell me more and I will draft those steps.`;
}

/**
 * The reply to the user messages of a turn: a checklist of their list items (MAX_ITEMS at most)
 * and a sentence about the last message's first line of prose. Deterministic; linear in the input,
 * and it yields to the event loop between slices.
 */
export async function planReply(userMessages: readonly string[]): Promise<LocalReply> {
  const checklist = await listItemsOf(userMessages);
  const last = userMessages.at(-1) ?? "";
  let topic: string | null = null;
  await eachLine([last], (_i, text, start, end) => {
    let s = start;
    while (s < end && isSpace(text.charCodeAt(s))) s++;
    if (s === end) return true; // blank
    if (end - start <= MAX_LIST_LINE && listLine(text.slice(start, end)) !== null) return true;
    topic = headlineOf(text, start, end);
    return false;
  });
  return { text: replyText(checklist, topic ?? headlineOf(last, 0, last.length)), checklist };
}

/** Splits a reply into the pieces one step streams: a few words each, spaces kept. */
export function chunks(text: string, wordsPerChunk = 3): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) out.push(words.slice(i, i + wordsPerChunk).join(""));
  return out;
}

/** A rough token count (words), for the usage each turn records. One pass, no copies. */
export function countTokens(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}
