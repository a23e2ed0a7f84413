import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { killHard, until, workerProcesses } from "../testing/processes.ts";
import { deleteRedisKeys, withRedis } from "../testing/redis.ts";
import { createTestUser, createWaitingTodo, withPostgresRuntime } from "../testing/runtime.ts";
import { planReply } from "./local-reply.ts";
import { BullmqJobs } from "../jobs/bullmq.ts";
import { LocalProvider } from "./providers/local.ts";
import { defineTurnJob } from "./turn-job.ts";
import { TURN_LOST_TWICE, TurnRunner } from "./turn-runner.ts";

// Turn-job workers (the BullMQ job backend with `agent.turn`) as separate processes on one
// PostgreSQL database and one Redis, killed with SIGKILL mid-turn: a crashed worker's job is taken
// over once (the turn resumes and completes once); a second crash fails the job, whose failure hook
// ends the turn in ERROR. Job locks are short (5 s, production has 30 s) so the
// retry comes quickly; much shorter, and a live worker whose event loop is busy starting up (two
// cores, a loaded CI machine) misses a lock renewal, so BullMQ counts a stall that was no crash.
const LOCK_MS = 5000;
const STEP_MS = 80;
const pg = withPostgresRuntime(before, after);
const redis = withRedis(before);
const startWorker = workerProcesses();

/** A worker process; resolves once its worker listens. */
const workerProcess = (databaseUrl: string, prefix: string, startTodo?: string) =>
  startWorker("server/testing/turn-worker.ts", { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, AGENT_STEP_MS: String(STEP_MS), QUEUE_PREFIX: prefix, QUEUE_LOCK_MS: String(LOCK_MS), START_TODO: startTodo ?? "" });

const CONTENT = "Moving day:\n- boxes\n- tape\n- van\n- pizza for the helpers";

async function setup() {
  const rt = pg.get()!;
  const user = await createTestUser(rt.prisma);
  const project = await rt.prisma.project.create({ data: { ownerId: user.id, name: "Crash" } });
  const todo = await createWaitingTodo(rt.prisma, { projectId: project.id, userId: user.id }, CONTENT);
  const reply = () => rt.prisma.message.findFirst({ where: { todoId: todo.id, role: "assistant" } });
  return { rt, todo, reply };
}

/** The worker this test process runs, after the crashes (as another server process would); `processed` counts the turn jobs it completed. */
function survivor(prefix: string) {
  const runner = new TurnRunner({ providers: { local: new LocalProvider(STEP_MS) }, defaultProvider: "local", maxConcurrent: 2, maxPerUser: 4, leaseMs: LOCK_MS / 2 });
  let backend: BullmqJobs | undefined;
  const worker = {
    processed: 0,
    async init() {
      const job = defineTurnJob(() => ({
        runNow: async (todoId, userId) => {
          const outcome = await runner.runNow(todoId, userId);
          if (outcome.done) worker.processed++;
          return outcome;
        },
      }));
      backend = await BullmqJobs.open(pg.get()!.prisma, redis.url, [job], { prefix, lanes: { agent: 2 }, lockMs: LOCK_MS, stalledCheckMs: LOCK_MS / 2 });
      await backend.start();
    },
    async stop() {
      await backend?.close();
      await runner.stop();
    },
  };
  return worker;
}

test("a worker killed mid-turn: another worker retries the job once, and the turn resumes and completes exactly once", async (ctx) => {
  if (!pg.get()) return ctx.skip(pg.reason());
  if (redis.skipReason()) return ctx.skip(redis.skipReason());
  const prefix = `todo-crash-${randomUUID()}`;
  const { rt, todo, reply } = await setup();
  const b = survivor(prefix);
  try {
    const a = await workerProcess(rt.databaseUrl!, prefix, todo.id);
    const partial = await until("a partial reply from the first worker", async () => {
      const m = await reply();
      return m && m.content.length > 0 && m.state === "PROCESSING" ? m.content : null;
    });
    await killHard(a);
    const expected = (await planReply([CONTENT])).text;
    assert.ok(partial.length < expected.length, "killed before the reply was complete");

    await b.init();
    const done = await until("the todo READY", async () => (await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status === "READY").catch(async (e) => {
      const t = await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
      const m = await reply();
      throw new Error(`${e.message}: ${JSON.stringify({ status: t.status, metadata: t.metadata, workflow: t.workflow, reply: m?.state, len: m?.content.length, processed: b.processed, now: Date.now() })}`);
    });
    assert.ok(done);
    const replies = await rt.prisma.message.findMany({ where: { todoId: todo.id, role: "assistant" }, include: { blocks: true } });
    assert.equal(replies.length, 1, "one reply, not a second one");
    assert.equal(replies[0]!.state, "DONE");
    assert.equal(replies[0]!.content, expected, "the reply resumed where the dead worker stopped, nothing repeated or lost");
    assert.equal(replies[0]!.blocks.length, 4, "checklist blocks once");
    // (the job counts as completed a moment after the todo is READY)
    await until("the surviving worker to complete the retried job", async () => b.processed === 1);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(b.processed, 1, "and only that job");
    const { workflow } = await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
    assert.equal((workflow as { currentTurn?: unknown }).currentTurn, undefined);
  } finally {
    await b.stop();
    await deleteRedisKeys(prefix);
  }
});

test("killed again after its retry: the turn ends in ERROR with the reason and is not retried a second time", async (ctx) => {
  if (!pg.get()) return ctx.skip(pg.reason());
  if (redis.skipReason()) return ctx.skip(redis.skipReason());
  const prefix = `todo-crash-${randomUUID()}`;
  const { rt, todo, reply } = await setup();
  const c = survivor(prefix);
  try {
    const a = await workerProcess(rt.databaseUrl!, prefix, todo.id);
    await until("a partial reply from the first worker", async () => {
      const m = await reply();
      return m && m.content.length > 0 ? m.content : null;
    });
    await killHard(a);
    // Read what the dead worker left only after it is dead: it may have written more between
    // the probe and the kill, and that growth is not the retry's.
    const first = (await reply())!.content;
    const b = await workerProcess(rt.databaseUrl!, prefix);
    const second = await until("the retry resuming the reply", async () => {
      const m = await reply();
      return m && m.content.length > first.length ? m.content : null;
    }).catch(async (e) => {
      const t = await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
      const m = await reply();
      throw new Error(`${e.message}: ${JSON.stringify({ status: t.status, metadata: t.metadata, workflow: t.workflow, reply: m?.state, len: m?.content.length, first: first.length, now: Date.now() })}`);
    });
    const { workflow } = await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
    assert.equal((workflow as { currentTurn: { recoveries: number } }).currentTurn.recoveries, 1);
    await killHard(b);

    await c.init();
    const failed = await until("the todo ERROR", async () => {
      const t = await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
      return t.status === "ERROR" ? t : null;
    });
    assert.equal((failed.metadata as { error: string }).error, TURN_LOST_TWICE);
    const replies = await rt.prisma.message.findMany({ where: { todoId: todo.id, role: "assistant" } });
    assert.equal(replies.length, 1);
    assert.ok(replies[0]!.content.startsWith(second), "the partial reply is kept");
    assert.equal(replies[0]!.state, "ERROR");
  } finally {
    await c.stop();
    await deleteRedisKeys(prefix);
  }
});
