import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { deleteRedisKeys, withRedis } from "../testing/redis.ts";
import { createTestUser, createWaitingTodo, withPostgresRuntime } from "../testing/runtime.ts";
import { LocalProvider } from "./providers/local.ts";
import { QueuedRunner } from "./queue.ts";
import { TurnRunner } from "./turn-runner.ts";

// Two workers (as two server processes would run) on one Redis queue and one PostgreSQL database.
const pg = withPostgresRuntime(before, after);
const redis = withRedis(before);

function worker(prefix: string) {
  const runner = new TurnRunner({ providers: { local: new LocalProvider(15) }, defaultProvider: "local", maxConcurrent: 2, maxPerUser: 8 });
  return new QueuedRunner(runner, redis.url, 2, { prefix, lockMs: 60_000 });
}

test("queued turns are shared by the workers; every turn runs exactly once", async (ctx) => {
  const rt = pg.get();
  if (!rt) return ctx.skip(pg.reason());
  if (redis.skipReason()) return ctx.skip(redis.skipReason());
  const prefix = `todo-test-${randomUUID()}`;
  const a = worker(prefix);
  const b = worker(prefix);
  await Promise.all([a.init(), b.init()]);
  try {
    const user = await createTestUser(rt.prisma);
    const project = await rt.prisma.project.create({ data: { ownerId: user.id, name: "Queue" } });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await createWaitingTodo(rt.prisma, { projectId: project.id, userId: user.id }, `job ${i}`)).id);
    for (const id of ids) a.start(id); // all queued through one process
    await a.idle();
    await b.idle();
    assert.equal(await rt.prisma.todo.count({ where: { id: { in: ids }, status: "READY" } }), 8);
    for (const id of ids) assert.equal(await rt.prisma.message.count({ where: { todoId: id, role: "assistant" } }), 1);
    assert.ok(a.processed > 0 && b.processed > 0, `both workers took jobs (a ${a.processed}, b ${b.processed})`);
    assert.equal(a.processed + b.processed, 8);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await deleteRedisKeys(prefix);
  }
});
