import assert from "node:assert/strict";
import { test } from "node:test";
import { createTestUser, suiteTestRuntime } from "../../testing/runtime.ts";
import { sourceHash } from "./embeddings.ts";
import { EMBED_COALESCE_MS, queueEmbedding } from "./queue-embedding.ts";

// Fast changes of one item share embedding jobs: the first is queued at once, the rest of its
// window by one job at the window's end, which embeds the text as it is then.

const rt = suiteTestRuntime(); // jobs not started: queued jobs stay in the table to be counted

test("ten changes in a second queue two jobs, the second delayed to the window's end; the last text is what gets embedded", async () => {
  const p = rt.prisma;
  const user = await createTestUser(p);
  const project = await p.project.create({ data: { ownerId: user.id, name: "Embeds" } });
  const todo = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "v0" } });
  const other = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "other" } });
  const started = Date.now();
  for (let i = 1; i <= 10; i++) {
    await p.todo.update({ where: { id: todo.id }, data: { content: `version ${i}` } });
    await queueEmbedding("todo", todo.id, `version ${i}`);
  }
  await queueEmbedding("todo", other.id, "other"); // another item has a window of its own
  const jobs = await p.job.findMany({ where: { name: "search.embed" }, orderBy: { runAt: "asc" } });
  const mine = jobs.filter((j) => (j.data as { id: string }).id === todo.id);
  assert.equal(mine.length, 2, "the first change's job and one for the rest of its window");
  assert.equal(mine[0]!.key, `todo:${todo.id}:${sourceHash("version 1")}`);
  assert.match(mine[1]!.key ?? "", new RegExp(`^todo:${todo.id}@\\d+$`));
  assert.ok(mine[1]!.runAt.getTime() >= started + EMBED_COALESCE_MS - 5, "the window's job runs when the window is over");
  assert.equal(jobs.filter((j) => (j.data as { id: string }).id === other.id).length, 1);

  await rt.runtime.jobs!.start();
  const deadline = Date.now() + 15_000;
  let stored: string | undefined;
  while (Date.now() < deadline) {
    stored = (await p.searchEmbedding.findUnique({ where: { todoId: todo.id }, select: { sourceHash: true } }))?.sourceHash;
    if (stored === sourceHash("version 10")) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(stored, sourceHash("version 10"), "the vector is of the last text");

  // Once the window is over, the next change is queued at once again.
  await new Promise((r) => setTimeout(r, Math.max(0, started + EMBED_COALESCE_MS + 50 - Date.now())));
  await rt.runtime.jobs!.idle();
  await p.todo.update({ where: { id: todo.id }, data: { content: "version 11" } });
  await queueEmbedding("todo", todo.id, "version 11");
  await rt.runtime.jobs!.idle();
  const now = await p.searchEmbedding.findUnique({ where: { todoId: todo.id }, select: { sourceHash: true } });
  assert.equal(now?.sourceHash, sourceHash("version 11"));
});
