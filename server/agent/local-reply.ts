// The built-in agent's answer: deterministic, offline, and shaped like a real one (text plus an
// actionable checklist when the user wrote a list).

const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)]|\[ ?\])\s+(.+?)\s*$/;

export type LocalReply = { text: string; checklist: string[] };

export function listItems(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.match(LIST_ITEM)?.[1]?.trim())
    .filter((item): item is string => !!item)
    .slice(0, 100);
}

export function planReply(userMessages: string[]): LocalReply {
  const last = userMessages.at(-1) ?? "";
  const checklist = userMessages.flatMap(listItems);
  const headline = last.split("\n").find((l) => l.trim() && !LIST_ITEM.test(l))?.trim() ?? last.trim();
  const topic = headline.length > 160 ? `${headline.slice(0, 157)}…` : headline;
  const text = checklist.length
    ? `I turned your list into a checklist of ${checklist.length} item${checklist.length === 1 ? "" : "s"}${topic ? ` for "${topic}"` : ""}. Check each one off as it is done, and tell me where you want help first.`
    : `On "${topic}": first I would pin down what done looks like, then split the work into small steps, and start with the one that unblocks the rest. Tell me more and I will draft those steps.`;
  return { text, checklist };
}

/** Splits a reply into the pieces one step streams: a few words each, spaces kept. */
export function chunks(text: string, wordsPerChunk = 3): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) out.push(words.slice(i, i + wordsPerChunk).join(""));
  return out;
}

/** A rough token count (words), for the usage each turn records. */
export function countTokens(text: string): number {
  return (text.match(/\S+/g) ?? []).length;
}
