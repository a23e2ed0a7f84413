import { test } from "node:test";
import assert from "node:assert/strict";
import { keyMatches, operationKey, refreshOperation } from "./swr.ts";

test("cache keys are [operationId, input]; events select them by operation and, optionally, by input", () => {
  const get = operationKey("project_get", { params: { projectId: "p1" } });
  const list = operationKey("project_list", {});
  assert.equal(keyMatches(list, ["project_list"]), true);
  assert.equal(keyMatches(get, ["project_list"]), false);
  assert.equal(keyMatches(get, ["project_list", "project_get"], (input) => (input.params as { projectId?: string }).projectId === "p1"), true);
  assert.equal(keyMatches(get, ["project_get"], (input) => (input.params as { projectId?: string }).projectId === "p2"), false);
  // Keys SWR holds for other purposes (strings, $inf$ pages) are never taken for an operation's.
  assert.equal(keyMatches("project_list", ["project_list"]), false);
  assert.equal(keyMatches(["project_list"], ["project_list"]), false);
});

test("refreshOperation: one request per key at a time, and the calls meanwhile share one more after it", async () => {
  const real = globalThis.fetch;
  const urls: string[] = [];
  const answer: ((body: unknown) => void)[] = [];
  globalThis.fetch = ((url: string) => {
    urls.push(String(url));
    return new Promise<Response>((resolve) => answer.push((body) => resolve(new Response(JSON.stringify(body), { status: 200 }))));
  }) as typeof fetch;
  const settle = () => new Promise((r) => setTimeout(r, 5));
  try {
    const input = { params: { todoId: "t1" }, query: { messageLimit: 1 } };
    const first = refreshOperation("todo_get", input);
    const second = refreshOperation("todo_get", input);
    const third = refreshOperation("todo_get", input);
    const other = refreshOperation("todo_get", { params: { todoId: "t2" }, query: { messageLimit: 1 } });
    await settle();
    assert.deepEqual(urls, ["/cookie/v1/todos/t1?messageLimit=1", "/cookie/v1/todos/t2?messageLimit=1"]);
    answer[0]!({ id: "t1", n: 1 });
    answer[1]!({ id: "t2", n: 1 });
    assert.deepEqual(await first, { id: "t1", n: 1 });
    assert.deepEqual(await other, { id: "t2", n: 1 });
    // The calls made while the first was in flight are answered by one request after it.
    await settle();
    assert.equal(urls.length, 3);
    answer[2]!({ id: "t1", n: 2 });
    assert.deepEqual(await second, { id: "t1", n: 2 });
    assert.equal(await third, await second);
    // Nothing in flight: the next call asks at once.
    const fourth = refreshOperation("todo_get", input);
    await settle();
    assert.equal(urls.length, 4);
    answer[3]!({ id: "t1", n: 3 });
    assert.deepEqual(await fourth, { id: "t1", n: 3 });
  } finally {
    globalThis.fetch = real;
  }
});
