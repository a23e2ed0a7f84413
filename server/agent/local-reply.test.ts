import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_ITEMS, MAX_LIST_LINE, SCAN_SLICE, chunks, countTokens, listItems, planReply } from "./local-reply.ts";

test("list lines of every common kind become items", () => {
  assert.deepEqual(listItems("Plan the launch:\n- book venue\n* send invites\n1. order cake\n2) hire DJ\n[ ] rent chairs\n[] fold napkins\n  • \tbuy ice  \r\nnot an item"), [
    "book venue",
    "send invites",
    "order cake",
    "hire DJ",
    "rent chairs",
    "fold napkins",
    "buy ice",
  ]);
  assert.deepEqual(listItems("no list here"), []);
  // A marker needs a space after it and something after that.
  assert.deepEqual(listItems("-x\n- \n-  \n1.x\n12\n[x] done\n[  ] two spaces\n--- rule"), []);
});

test("a list yields a checklist reply, prose yields an approach, both deterministic", async () => {
  const a = await planReply(["Plan the launch:\n- book venue\n- send invites"]);
  assert.deepEqual(a.checklist, ["book venue", "send invites"]);
  assert.match(a.text, /checklist of 2 items for "Plan the launch:"/);
  assert.deepEqual(await planReply(["Plan the launch:\n- book venue\n- send invites"]), a);
  const b = await planReply(["Write the README"]);
  assert.deepEqual(b.checklist, []);
  assert.match(b.text, /^On "Write the README"/);
  // The topic is the first line of prose, cut at 160 characters.
  const long = await planReply([`\n- item\n   ${"x".repeat(300)}   \nsecond`]);
  assert.ok(long.text.includes(`for "${"x".repeat(157)}…"`));
  // Only a list: nothing to name, the list is not quoted back.
  const only = await planReply(["- boxes\n- van"]);
  assert.deepEqual(only.checklist, ["boxes", "van"]);
  assert.equal(only.text, 'I turned your list into a checklist of 2 items. Start with "boxes", then "van". Check each one off as it is done, and tell me where you want help first.');
});

test("a line longer than MAX_LIST_LINE is prose; items are capped at MAX_ITEMS in all", async () => {
  const longItem = `- ${"y".repeat(MAX_LIST_LINE)}`;
  assert.deepEqual(listItems(`${longItem}\n- short`), ["short"]);
  const many = Array.from({ length: MAX_ITEMS + 20 }, (_, i) => `- item ${i}`).join("\n");
  assert.equal(listItems(many).length, MAX_ITEMS);
  assert.equal((await planReply([many, many])).checklist.length, MAX_ITEMS);
});

test("chunks rebuild the text exactly", async () => {
  const text = (await planReply(["Write the README"])).text;
  const parts = chunks(text);
  assert.ok(parts.length > 5);
  assert.equal(parts.join(""), text);
  assert.equal(countTokens("a b  c\nd"), 4);
  assert.equal(countTokens("  \t\n"), 0);
});

// ─── hostile input: time grows linearly, and a big input does not hold the event loop ───

/** Hostile shapes of n characters (the first: one list line of spaces that ends in a letter). */
const HOSTILE: Record<string, (n: number) => string> = {
  "one long list line": (n) => `- a${" ".repeat(n - 4)}b`,
  "list lines just under the cap": (n) => `- a${" ".repeat(MAX_LIST_LINE - 5)}b\n`.repeat(Math.ceil(n / MAX_LIST_LINE)).slice(0, n),
  "marker then spaces only": (n) => `-${" ".repeat(n - 1)}`,
  "digits without a terminator": (n) => "1".repeat(n),
  "leading whitespace": (n) => `${" ".repeat(n - 3)}- x`,
};

/**
 * The work of one parse (listItems and planReply) of `text`, counted rather than timed: every
 * character the scanner reads through `charCodeAt`, `indexOf` and `slice` (the only ways it reads a
 * string). A count is the same on every machine, so the test cannot fail under load.
 */
async function parseWork(text: string): Promise<number> {
  const proto = String.prototype;
  const original = { charCodeAt: proto.charCodeAt, indexOf: proto.indexOf, slice: proto.slice };
  let work = 0;
  proto.charCodeAt = function (this: string, i: number) {
    work++;
    return original.charCodeAt.call(this, i);
  };
  proto.indexOf = function (this: string, search: string, from = 0) {
    const at = original.indexOf.call(this, search, from);
    work += (at === -1 ? this.length : at + search.length) - from;
    return at;
  };
  proto.slice = function (this: string, from?: number, to?: number) {
    const out = original.slice.call(this, from, to);
    work += out.length;
    return out;
  };
  try {
    listItems(text);
    await planReply([text]);
  } finally {
    Object.assign(proto, original);
  }
  return work;
}

for (const [name, shape] of Object.entries(HOSTILE)) {
  test(`parsing is linear on hostile input: ${name} (16× the input is at most about 16× the work)`, async () => {
    const n = 12_500;
    const small = shape(n);
    const large = shape(16 * n);
    assert.equal(large.length, 16 * small.length);
    const w1 = await parseWork(small);
    const w16 = await parseWork(large);
    assert.ok(w1 > 0, `${name}: the scanner read nothing`);
    // Linear: about 16× (a little more where a line straddles the cut); quadratic: about 256×.
    assert.ok(w16 / w1 <= 20, `${name}: ${(w16 / w1).toFixed(1)}× the work for 16× the input`);
  });
}

test("planning a big turn yields to the event loop between slices", async () => {
  const messages = Array.from({ length: 10 }, (_, i) => `- item ${i}\n${"some words on a line\n".repeat(5_000)}`);
  const total = messages.reduce((sum, m) => sum + m.length, 0);
  let ticks = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    ticks++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const reply = await planReply(messages);
  running = false;
  assert.equal(reply.checklist.length, 10);
  // Other work ran between the slices: about one turn of the loop per SCAN_SLICE characters.
  assert.ok(ticks >= Math.floor(total / SCAN_SLICE) - 1, `${ticks} turns of the event loop over ${total} characters`);
});

test("replies vary with the request: greeting, thanks, question, and the kind of work", async () => {
  const texts = await Promise.all(["Hello there", "Thanks!", "What is the capital of France?", "Fix the login bug", "Write the README", "Plan the offsite", "Buy a new desk", "Learn Spanish", "Clean the garage"].map(async (m) => (await planReply([m])).text));
  assert.equal(new Set(texts).size, texts.length, "every request gets its own reply");
  assert.match(texts[0]!, /^Hello! I am the built-in offline agent/);
  assert.match(texts[2]!, /^On "What is the capital of France\?": I am the built-in offline agent/);
  assert.match(texts[3]!, /reproduce the problem/);
  const list = await planReply(["Trip:\n1. pack bags\n2) book train\n* call mum"]);
  assert.deepEqual(list.checklist, ["pack bags", "book train", "call mum"]);
  assert.match(list.text, /Start with "pack bags", then the other 2\./);
});
