import assert from "node:assert/strict";
import { test } from "node:test";
import { eachDatabase } from "../testing/each-database.ts";
import { createTestUser } from "../testing/runtime.ts";
import { AppendBatcher, writeAppends, type AppendRow } from "./reply-appends.ts";

// Every streaming turn's coalesced appends of one moment are one statement; each row is still
// written only while its todo runs.

test("appends asked for within the window are one write; each learns whether its row was written", async () => {
  const writes: AppendRow[][] = [];
  const batcher = new AppendBatcher(async (rows) => {
    writes.push(rows);
    return new Set(rows.filter((r) => r.todoId !== "stopped").map((r) => r.messageId));
  }, 10);
  const results = await Promise.all([batcher.append("m1", "t1", "a"), batcher.append("m2", "stopped", "b"), batcher.append("m1", "t1", "c")]);
  assert.deepEqual(results, [true, false, true]);
  assert.equal(writes.length, 1, "one write for the three appends");
  assert.deepEqual(writes[0], [
    { messageId: "m1", todoId: "t1", text: "ac" },
    { messageId: "m2", todoId: "stopped", text: "b" },
  ]);
  // The next append opens a new batch.
  assert.equal(await batcher.append("m3", "t3", "d"), true);
  assert.equal(writes.length, 2);
});

test("a failed write fails every append of its batch, and the next batch is written", async () => {
  let fail = true;
  const batcher = new AppendBatcher(async (rows) => {
    if (fail) throw new Error("database gone");
    return new Set(rows.map((r) => r.messageId));
  }, 5);
  const a = batcher.append("m1", "t1", "a");
  const b = batcher.append("m2", "t2", "b");
  await assert.rejects(a, /database gone/);
  await assert.rejects(b, /database gone/);
  fail = false;
  assert.equal(await batcher.append("m1", "t1", "a"), true);
});

eachDatabase("writeAppends", (runtime) => {
  test("one statement appends to the replies of running todos and leaves a paused one's as it was", async (t) => {
    const rt = runtime(t);
    if (!rt) return;
    const p = rt.prisma;
    const user = await createTestUser(p);
    const project = await p.project.create({ data: { ownerId: user.id, name: "Appends" } });
    const todos = await Promise.all(["RUNNING", "RUNNING", "PAUSED"].map((status) => p.todo.create({ data: { projectId: project.id, userId: user.id, content: "x", status: status as "RUNNING" | "PAUSED" } })));
    const replies = await Promise.all(todos.map((todo) => p.message.create({ data: { todoId: todo.id, role: "assistant", content: "Hello", state: "PROCESSING" } })));
    const texts = [", world", " — ünïcode 'quoted' \\ text", " never"];
    const written = await writeAppends(replies.map((m, i) => ({ messageId: m.id, todoId: todos[i]!.id, text: texts[i]! })));
    assert.deepEqual([...written].sort(), [replies[0]!.id, replies[1]!.id].sort());
    const after = await p.message.findMany({ where: { id: { in: replies.map((m) => m.id) } }, select: { id: true, content: true } });
    const content = new Map(after.map((m) => [m.id, m.content]));
    assert.equal(content.get(replies[0]!.id), "Hello, world");
    assert.equal(content.get(replies[1]!.id), "Hello — ünïcode 'quoted' \\ text");
    assert.equal(content.get(replies[2]!.id), "Hello", "the paused todo's reply is not written");
  });
});
