import { test } from "node:test";
import assert from "node:assert/strict";
import { bulkSummary, retryAfterOf, runBulk, type BulkProgress } from "./bulk.ts";

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));
const limited = (retryAfter: number) => Object.assign(new Error("Rate limit"), { code: "TOO_MANY_REQUESTS", status: 429, data: { retryAfter } });

test("every item runs once, at most `concurrency` at a time, with progress up to the total", async () => {
  let inFlight = 0;
  let most = 0;
  const seen: number[] = [];
  const progress: BulkProgress[] = [];
  const out = await runBulk(
    [1, 2, 3, 4, 5, 6, 7],
    async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 2));
      seen.push(n);
      inFlight--;
    },
    describe,
    { concurrency: 3, onProgress: (p) => progress.push(p) },
  );
  assert.deepEqual([...seen].sort(), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(most, 3);
  assert.deepEqual([...out.done].sort(), [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(out.failed, []);
  assert.deepEqual(out.skipped, []);
  assert.deepEqual(progress[0], { finished: 0, total: 7 });
  assert.deepEqual(progress.at(-1), { finished: 7, total: 7 });
});

test("a failure fails its item only; the others still run", async () => {
  const out = await runBulk(["a", "b", "c"], async (s) => {
    if (s === "b") throw new Error("Todo not found");
  }, describe);
  assert.deepEqual(out.done.sort(), ["a", "c"]);
  assert.deepEqual(out.failed, [{ item: "b", message: "Todo not found" }]);
});

test("a rate limit is waited out, counting down, and the item sent again; too many refusals fail it", async () => {
  const slept: number[] = [];
  const sleep = async (ms: number) => void slept.push(ms);
  const attempts = new Map<string, number>();
  const progress: BulkProgress[] = [];
  const out = await runBulk(
    ["once", "always"],
    async (s) => {
      const n = (attempts.get(s) ?? 0) + 1;
      attempts.set(s, n);
      if (s === "always" || n === 1) throw limited(2);
    },
    describe,
    { concurrency: 1, sleep, retries: 2, onProgress: (p) => progress.push(p) },
  );
  assert.deepEqual(out.done, ["once"]);
  assert.deepEqual(out.failed, [{ item: "always", message: "Rate limit" }]);
  assert.equal(attempts.get("once"), 2);
  assert.equal(attempts.get("always"), 3);
  // 2 s each time: one wait for "once", two for "always".
  assert.deepEqual(slept, [1000, 1000, 1000, 1000, 1000, 1000]);
  assert.ok(progress.some((p) => p.waiting === 2) && progress.some((p) => p.waiting === 1));
});

test("stopping sends nothing more: the rest are skipped, unchanged", async () => {
  const stop = new AbortController();
  const sent: number[] = [];
  const out = await runBulk(
    [1, 2, 3, 4, 5],
    async (n) => {
      sent.push(n);
      if (n === 2) stop.abort();
    },
    describe,
    { concurrency: 1, signal: stop.signal },
  );
  assert.deepEqual(sent, [1, 2]);
  assert.deepEqual(out.done, [1, 2]);
  assert.deepEqual(out.skipped, [3, 4, 5]);
});

test("stopped while waiting out a rate limit: the refused item is skipped, not failed", async () => {
  const stop = new AbortController();
  const out = await runBulk(
    ["a", "b"],
    async () => {
      throw limited(30);
    },
    describe,
    { concurrency: 1, signal: stop.signal, sleep: async () => stop.abort() },
  );
  assert.deepEqual(out.failed, []);
  assert.deepEqual(out.skipped, ["a", "b"]);
});

test("retryAfterOf reads the API's 429 and nothing else", () => {
  assert.equal(retryAfterOf(limited(7)), 7);
  assert.equal(retryAfterOf({ code: "TOO_MANY_REQUESTS" }), 1);
  assert.equal(retryAfterOf(limited(9999)), 120);
  assert.equal(retryAfterOf({ code: "CONFLICT", status: 409 }), null);
  assert.equal(retryAfterOf(null), null);
});

test("the summary counts what changed, names the first failure and its reason, and what a stop left", () => {
  const t = (content: string) => ({ content });
  assert.deepEqual(bulkSummary("move", { done: [t("a"), t("b")], failed: [], skipped: [] }, "to Garden"), { ok: true, text: "2 todos moved to Garden." });
  assert.deepEqual(bulkSummary("delete", { done: [t("a")], failed: [{ item: t("Water the plants"), message: "Todo not found" }, { item: t("c"), message: "x" }], skipped: [] }), {
    ok: false,
    text: "1 todo deleted. 2 todos could not be deleted: “Water the plants”: Todo not found (and 1 more). They stay selected.",
  });
  assert.deepEqual(bulkSummary("complete", { done: [], failed: [], skipped: [t("a")] }), { ok: true, text: "Stopped: 1 todo left as it was." });
  assert.equal(bulkSummary("complete", { done: [], failed: [], skipped: [] }), null);
});
