// The built-in agent's answer: deterministic, offline, and shaped like a real one (text plus an
// actionable checklist when the user wrote a list).
//
// Everything here reads user content, so it is linear in the input (a hand-written line scanner,
// no backtracking regex), looks at most MAX_LIST_LINE characters of a line for a list item, and the
// async entry points hand the event loop back every SCAN_SLICE characters, so a huge message never
// holds up other requests.
import { MAX_ITEMS, MAX_LIST_LINE, isSpace, listLine } from "../../lib/list-items.ts";

export { MAX_ITEMS, MAX_LIST_LINE, listItems, listLine } from "../../lib/list-items.ts";

/** Characters scanned between two yields to the event loop. */
export const SCAN_SLICE = 64 * 1024;

export type LocalReply = { text: string; checklist: string[] };

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

/** An item or topic quoted inside a sentence: at most 60 characters. */
const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

type Kind = "greeting" | "thanks" | "question" | "fix" | "write" | "plan" | "buy" | "learn" | "other";

/** What the request asks for, from its first line of prose (at most 160 characters, see headlineOf). */
function kindOf(topic: string): Kind {
  const t = topic.toLowerCase().trim();
  if (t.length <= 40 && /^(hi|hello|hey|good (morning|afternoon|evening))\b/.test(t)) return "greeting";
  if (t.length <= 40 && /^(thanks|thank you|thx|cheers)\b/.test(t)) return "thanks";
  if (t.endsWith("?")) return "question";
  const verb = t.split(" ", 1)[0] ?? "";
  if (["fix", "debug", "repair", "solve", "investigate"].includes(verb)) return "fix";
  if (["write", "draft", "document", "describe", "compose"].includes(verb)) return "write";
  if (["plan", "organize", "organise", "prepare", "schedule", "arrange"].includes(verb)) return "plan";
  if (["buy", "order", "get", "shop", "book"].includes(verb)) return "buy";
  if (["learn", "study", "read", "practice", "practise"].includes(verb)) return "learn";
  return "other";
}

const APPROACH: Record<Exclude<Kind, "greeting" | "thanks" | "question">, string> = {
  fix: "first I would reproduce the problem reliably, then narrow down where it starts, change one thing at a time, and check the fix against the original case.",
  write: "first I would name the reader and the one thing they should take away, then outline the sections, write a rough draft straight through, and edit it in a second pass.",
  plan: "first I would fix the date and what done looks like, list everything that has to happen, order it by what blocks what, and give each step an owner.",
  buy: "first I would write down what exactly is needed and the budget, compare two or three options, then order and note when it should arrive.",
  learn: "first I would pick one small goal for this week, find one good source, practise a little every day, and check what stuck at the end of the week.",
  other: "first I would pin down what done looks like, then split the work into small steps, and start with the one that unblocks the rest.",
};

/** The reply's text: it names what was asked and varies with it. Deterministic. */
function replyText(checklist: string[], topic: string): string {
  if (checklist.length) {
    const n = checklist.length;
    const next = n > 1 ? `, then ${n === 2 ? `"${short(checklist[1]!)}"` : `the other ${n - 1}`}` : "";
    return `I turned your list into a checklist of ${n} item${n === 1 ? "" : "s"}${topic ? ` for "${topic}"` : ""}. Start with "${short(checklist[0]!)}"${next}. Check each one off as it is done, and tell me where you want help first.`;
  }
  const kind = kindOf(topic);
  if (kind === "greeting") return `Hello! I am the built-in offline agent. Write what you want to get done, or a list with one item per line ("- " or "1."), and I will turn the list into a checklist you can tick off.`;
  if (kind === "thanks") return "You are welcome. Add a message whenever there is more to do, or mark this todo done when it is finished.";
  if (kind === "question")
    return `On "${topic}": I am the built-in offline agent, so I cannot look this up or reason about it the way a language model would. Write the steps you have in mind as a list and I will make a checklist of them; for a real answer, connect a model in the settings.`;
  return `On "${topic}": ${APPROACH[kind]} Tell me more and I will draft those steps.`;
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
  // A message that is only a list has no topic to name: the reply does not quote the list back.
  return { text: replyText(checklist, topic ?? (checklist.length ? "" : headlineOf(last, 0, last.length))), checklist };
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
