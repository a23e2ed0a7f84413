import { test } from "node:test";
import assert from "node:assert/strict";
import { enqueue } from "../../jobs/index.ts";
import { createTestUser, suiteTestRuntime } from "../../testing/runtime.ts";
import { BACKFILL_BATCH, backfillBatch, embedBackfillJob } from "./backfill-job.ts";
import { embeddingProvider, lexicalEmbedding } from "./embeddings.ts";

// The search vector backfill: todos and notes written without a vector of the configured model
// (before embeddings existed, or under another model) get one, in batches, through the job.

const rt = suiteTestRuntime({ setup: () => rt.runtime.jobs!.start() });

test("every todo and note without a vector of the configured model gets one; other models' vectors are replaced; a second run finds nothing", async () => {
  const p = rt.prisma;
  const { model } = embeddingProvider();
  const user = await createTestUser(p);
  const project = await p.project.create({ data: { ownerId: user.id, name: "Old" } });
  const n = BACKFILL_BATCH + 5; // more than one batch: the job goes on until nothing is left
  await p.todo.createMany({ data: Array.from({ length: n }, (_, i) => ({ projectId: project.id, userId: user.id, content: `Old todo ${i} about deployments` })) });
  const note = await p.memoryNote.create({ data: { userId: user.id, content: "Prefers short answers" } });
  const stale = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "Embedded by a model since replaced" } });
  await p.searchEmbedding.create({ data: { todoId: stale.id, model: "openai:retired", vector: [1, 0], sourceHash: "x" } });
  const fresh = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "Already current" } });
  await p.searchEmbedding.create({ data: { todoId: fresh.id, model, vector: lexicalEmbedding("marker"), sourceHash: "kept" } });

  await enqueue(embedBackfillJob, { model, round: 0 });
  await rt.runtime.jobs!.idle();

  const todoIds = (await p.todo.findMany({ where: { projectId: project.id }, select: { id: true } })).map((t) => t.id);
  const rows = await p.searchEmbedding.findMany({ where: { OR: [{ todoId: { in: todoIds } }, { noteId: note.id }] } });
  assert.equal(rows.length, n + 3, "one vector per todo and note");
  assert.ok(rows.every((r) => r.model === model), "every vector is of the configured model");
  const byTodo = new Map(rows.map((r) => [r.todoId ?? r.noteId, r]));
  assert.deepEqual(byTodo.get(stale.id)!.vector.map((x) => Math.round(x * 1e6)), lexicalEmbedding("Embedded by a model since replaced").map((x) => Math.round(x * 1e6)));
  assert.equal(byTodo.get(fresh.id)!.sourceHash, "kept", "a current vector is not recomputed");
  assert.deepEqual(await backfillBatch(), { found: 0, stored: 0, next: { kind: "note", after: "" } });
  assert.deepEqual(await backfillBatch({ kind: "note", after: "" }), { found: 0, stored: 0, next: null });

  // Queued for a model that is no longer configured: nothing happens.
  const other = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "Written later" } });
  await enqueue(embedBackfillJob, { model: "openai:not-configured", round: 0 });
  await rt.runtime.jobs!.idle();
  assert.equal(await p.searchEmbedding.count({ where: { todoId: other.id } }), 0);
});
