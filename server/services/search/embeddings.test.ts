import assert from "node:assert/strict";
import { test } from "node:test";
import { eachDatabase } from "../../testing/each-database.ts";
import { createTestUser } from "../../testing/runtime.ts";
import { storeEmbedding } from "./embeddings.ts";

eachDatabase("storeEmbedding", (runtime) => {
  test("inserts a todo's or a note's vector, replaces it in place, and refuses one whose todo is gone", async (t) => {
    const rt = runtime(t);
    if (!rt) return;
    const p = rt.prisma;
    const user = await createTestUser(p);
    const project = await p.project.create({ data: { ownerId: user.id, name: "Vectors" } });
    const todo = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "x" } });
    const note = await p.memoryNote.create({ data: { userId: user.id, content: "remember this" } });
    const first = [0.1, -0.25, 1 / 3, 0, 1e-7];
    await storeEmbedding({ todoId: todo.id }, { model: "m1", vector: first, sourceHash: "h1" });
    await storeEmbedding({ noteId: note.id }, { model: "m1", vector: [1, 0], sourceHash: "n1" });
    const stored = await p.searchEmbedding.findUniqueOrThrow({ where: { todoId: todo.id } });
    assert.deepEqual(stored.vector.map(Math.fround), first.map(Math.fround), "stored as real (float4), the column's type");
    assert.equal(stored.model, "m1");
    assert.ok(Math.abs(stored.updatedAt.getTime() - Date.now()) < 60_000, "updatedAt is now, in UTC");

    await storeEmbedding({ todoId: todo.id }, { model: "m2", vector: [0.5, 0.5], sourceHash: "h2" });
    const replaced = await p.searchEmbedding.findMany({ where: { todoId: todo.id } });
    assert.equal(replaced.length, 1, "replaced, not added");
    assert.deepEqual([replaced[0]!.id, replaced[0]!.model, replaced[0]!.vector, replaced[0]!.sourceHash], [stored.id, "m2", [0.5, 0.5], "h2"]);
    assert.deepEqual((await p.searchEmbedding.findUniqueOrThrow({ where: { noteId: note.id } })).vector, [1, 0]);

    const gone = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "y" } });
    await p.todo.delete({ where: { id: gone.id } });
    await assert.rejects(storeEmbedding({ todoId: gone.id }, { model: "m1", vector: [1], sourceHash: "g" }));
    assert.equal(await p.searchEmbedding.count({ where: { todoId: gone.id } }), 0);
  });
});
