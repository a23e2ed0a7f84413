import assert from "node:assert/strict";
import { test } from "node:test";
import { eachDatabase } from "../../testing/each-database.ts";
import { createTestUser } from "../../testing/runtime.ts";
import { blockInsert, mergeBlockContent } from "./blocks.ts";

eachDatabase("blocks written in raw SQL", (runtime) => {
  test("one statement stores the blocks, and the rows it gives are what Prisma reads back", async (t) => {
    const rt = runtime(t);
    if (!rt) return;
    const p = rt.prisma;
    const user = await createTestUser(p);
    const project = await p.project.create({ data: { ownerId: user.id, name: "Blocks" } });
    const todo = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "x" } });
    const reply = await p.message.create({ data: { todoId: todo.id, role: "assistant", content: "", state: "PROCESSING" } });
    const before = Date.now();
    const drafts = [
      { type: "checklist_item", actionable: true, content: { text: "ünïcode 'quoted' \\ \"text\"", nested: { n: 1, list: [true, null] } } },
      { type: "note", actionable: false, content: {} },
      { type: "checklist_item", actionable: true, content: { text: "third" } },
    ];
    const insert = blockInsert(drafts.map((d, i) => ({ todoId: todo.id, messageId: reply.id, position: 4 + i, ...d })));
    assert.ok(insert);
    assert.equal(await p.$executeRaw(insert.sql), 3);
    const rows = insert.rows;
    const stored = await p.block.findMany({ where: { messageId: reply.id }, orderBy: { position: "asc" } });
    assert.deepEqual([...rows].sort((a, b) => a.position - b.position), stored, "the rows given are the stored rows, with Prisma's types");
    assert.deepEqual(
      stored.map((b) => [b.position, b.type, b.actionable, b.checked, b.subTodoIds, b.content]),
      drafts.map((d, i) => [4 + i, d.type, d.actionable, false, [], d.content]),
    );
    assert.equal(new Set(stored.map((b) => b.id)).size, 3, "each block has its own id");
    for (const b of stored) {
      assert.ok(b.createdAt.getTime() >= before - 5 && b.createdAt.getTime() <= Date.now() + 5, `createdAt is now, in UTC (${b.createdAt.toISOString()})`);
      assert.equal(b.updatedAt.getTime(), b.createdAt.getTime());
    }
    assert.equal(blockInsert([]), null, "no blocks: no statement");
  });

  test("mergeBlockContent replaces the top-level keys it is given, keeps the others, and returns the stored row", async (t) => {
    const rt = runtime(t);
    if (!rt) return;
    const p = rt.prisma;
    const user = await createTestUser(p);
    const project = await p.project.create({ data: { ownerId: user.id, name: "Merge" } });
    const todo = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "x" } });
    const reply = await p.message.create({ data: { todoId: todo.id, role: "assistant", content: "", state: "PROCESSING" } });
    const step = await p.block.create({ data: { todoId: todo.id, messageId: reply.id, type: "tool_call", content: { tool: "checklist", state: "running", input: { add: ["a"] } } } });
    const merged = await mergeBlockContent(step.id, { state: "done", output: { added: 1, note: "ünïcode 'q'" } });
    const stored = await p.block.findUniqueOrThrow({ where: { id: step.id } });
    assert.deepEqual(merged, stored, "the returned row is the stored row, with Prisma's types");
    assert.deepEqual(stored.content, { tool: "checklist", state: "done", input: { add: ["a"] }, output: { added: 1, note: "ünïcode 'q'" } });
    assert.ok(stored.updatedAt.getTime() >= step.updatedAt.getTime());
    const odd = await p.block.create({ data: { todoId: todo.id, messageId: reply.id, type: "tool_call", content: ["not", "an", "object"] } });
    assert.deepEqual((await mergeBlockContent(odd.id, { state: "error", output: null }))?.content, { state: "error", output: null }, "content that is not an object is replaced");
    assert.equal(await mergeBlockContent("no-such-block", { state: "done" }), null);
  });
});
