// Agent turns as the job `agent.turn` (./turn-job.ts) on both job backends: two workers (as two
// server processes run them) sharing turns on one Redis and one PostgreSQL database; a runner that
// throws (retried, then the todo ERROR and the job failed); the in-process backend resuming a
// queued turn and a turn cut off by a restart; a user at the turn limit deferring without using attempts.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { BullmqJobs } from "../jobs/bullmq.ts";
import { enqueue } from "../jobs/enqueue.ts";
import { InProcessJobs } from "../jobs/in-process.ts";
import type { JobBackend } from "../jobs/define.ts";
import { setLogLevel } from "../log.ts";
import { deleteRedisKeys, withRedis } from "../testing/redis.ts";
import { createTestUser, createWaitingTodo, suiteTestRuntime, withPostgresRuntime } from "../testing/runtime.ts";
import { LocalProvider } from "./providers/local.ts";
import type { RunOutcome } from "./runner.ts";
import { defineTurnJob } from "./turn-job.ts";
import { TurnRunner } from "./turn-runner.ts";
import { scriptedProvider } from "./testing/scripted-model.ts";

before(() => setLogLevel("silent"));

/** A server process's agent as far as turns go: its runner, the turn job bound to it, and the turns it completed. */
function agentProcess(runner: TurnRunner, runNow?: (todoId: string, userId?: string) => Promise<RunOutcome>) {
  const counts = { processed: 0, deferred: 0 };
  const job = defineTurnJob(() => ({
    runNow: async (todoId, userId) => {
      const outcome = await (runNow ?? runner.runNow.bind(runner))(todoId, userId);
      if (outcome.done) counts.processed++;
      else counts.deferred++;
      return outcome;
    },
  }));
  return { runner, job, counts };
}

const localRunner = (opts: { stepMs?: number; maxPerUser?: number; leaseMs?: number } = {}) =>
  new TurnRunner({ providers: { local: new LocalProvider(opts.stepMs ?? 15) }, defaultProvider: "local", maxConcurrent: 2, maxPerUser: opts.maxPerUser ?? 8, leaseMs: opts.leaseMs, busyRetryMs: 20 });

describe("with Redis (BullMQ) on PostgreSQL", { timeout: 90_000 }, () => {
  const pg = withPostgresRuntime(before, after);
  const redis = withRedis(before);
  const skip = () => (pg.get() ? redis.skipReason() : pg.reason());

  async function open(prefix: string, p: ReturnType<typeof agentProcess>): Promise<JobBackend> {
    const backend = await BullmqJobs.open(pg.get()!.prisma, redis.url, [p.job], { prefix, lanes: { agent: 2 } });
    await backend.start();
    return backend;
  }

  test("queued turns are shared by the workers; every turn runs exactly once", async (ctx) => {
    if (skip()) return ctx.skip(skip());
    const rt = pg.get()!;
    const prefix = `todo-test-${randomUUID()}`;
    const a = agentProcess(localRunner());
    const b = agentProcess(localRunner());
    const [ja, jb] = [await open(prefix, a), await open(prefix, b)];
    try {
      const user = await createTestUser(rt.prisma);
      const project = await rt.prisma.project.create({ data: { ownerId: user.id, name: "Queue" } });
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await createWaitingTodo(rt.prisma, { projectId: project.id, userId: user.id }, `job ${i}`)).id);
      for (const id of ids) await enqueue(a.job, { todoId: id }, { key: id }, ja); // all queued through one process
      // Started again while queued (nothing added) or running (looked at once more, nothing to do): one reply each.
      for (const id of ids) await enqueue(a.job, { todoId: id }, { key: id }, ja);
      await ja.idle();
      await Promise.all([a.runner.idle(), b.runner.idle()]);
      assert.equal(await rt.prisma.todo.count({ where: { id: { in: ids }, status: "READY" } }), 8);
      for (const id of ids) assert.equal(await rt.prisma.message.count({ where: { todoId: id, role: "assistant" } }), 1);
      assert.ok(a.counts.processed > 0 && b.counts.processed > 0, `both workers took jobs (a ${a.counts.processed}, b ${b.counts.processed})`);
      const runs = a.counts.processed + b.counts.processed;
      assert.ok(runs >= 8 && runs <= 16, `${runs} runs: one per todo, and at most one more for a start that came while it ran`);
    } finally {
      await Promise.all([ja.close(), jb.close(), a.runner.stop(), b.runner.stop()]);
      await deleteRedisKeys(prefix);
    }
  });

  test("a turn job whose runner throws is retried, then the todo ends in ERROR and `npm run jobs -- failed` lists the job", async (ctx) => {
    if (skip()) return ctx.skip(skip());
    const rt = pg.get()!;
    const prefix = `todo-test-${randomUUID()}`;
    let calls = 0;
    const p = agentProcess(localRunner(), async () => {
      calls++;
      throw new Error("the runner broke");
    });
    const jobs = await open(prefix, p);
    try {
      const user = await createTestUser(rt.prisma);
      const project = await rt.prisma.project.create({ data: { ownerId: user.id, name: "Throws" } });
      const todo = await createWaitingTodo(rt.prisma, { projectId: project.id, userId: user.id }, "doomed");
      const id = await enqueue(p.job, { todoId: todo.id }, { key: todo.id }, jobs);
      await jobs.idle();
      assert.equal(calls, 2, "run, then retried once (attempts: 2)");
      const failed = await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
      // (the failure hook runs right after the job lands in the failed set)
      for (let i = 0; i < 200 && (await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status !== "ERROR"; i++) await new Promise((r) => setTimeout(r, 20));
      const after = await rt.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
      assert.equal(after.status, "ERROR", `was ${failed.status}`);
      assert.equal((after.metadata as { error: string }).error, "The agent turn could not finish: the runner broke");
      assert.deepEqual(
        (await jobs.failed()).map((f) => ({ id: f.id, name: f.name, attempts: f.attempts, error: f.error })),
        [{ id, name: "agent.turn", attempts: 2, error: "the runner broke" }],
      );
      // The operator's view: the script lists it from another process.
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/jobs.ts", "failed"], {
        env: { ...process.env, DATABASE_URL: rt.databaseUrl!, REDIS_URL: redis.url, REDIS_PREFIX: prefix, LOG_LEVEL: "silent", AUTH_SECRET: "x".repeat(40) },
      });
      const listed = stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; name: string; attempts: number });
      assert.deepEqual(listed.map((l) => [l.id, l.name, l.attempts]), [[id, "agent.turn", 2]]);
    } finally {
      await Promise.all([jobs.close(), p.runner.stop()]);
      await deleteRedisKeys(prefix);
    }
  });

  test("a user at the turn limit: the job is deferred, not failed, however often (no attempt counted)", async (ctx) => {
    if (skip()) return ctx.skip(skip());
    const rt = pg.get()!;
    const prefix = `todo-test-${randomUUID()}`;
    // One turn per user; two slow turns of one user on one worker: the second defers until the first ends.
    const p = agentProcess(new TurnRunner({ providers: { fake: scriptedProvider([{ text: Array.from({ length: 12 }, (_, i) => `w${i} `) }], { stepMs: 40 }) }, defaultProvider: "fake", maxConcurrent: 2, maxPerUser: 1, busyRetryMs: 20 }));
    const jobs = await open(prefix, p);
    try {
      const user = await createTestUser(rt.prisma);
      const project = await rt.prisma.project.create({ data: { ownerId: user.id, name: "Busy" } });
      const ids = [(await createWaitingTodo(rt.prisma, { projectId: project.id, userId: user.id }, "one")).id, (await createWaitingTodo(rt.prisma, { projectId: project.id, userId: user.id }, "two")).id];
      for (const id of ids) await enqueue(p.job, { todoId: id }, { key: id }, jobs);
      await jobs.idle();
      await p.runner.idle();
      assert.equal(await rt.prisma.todo.count({ where: { id: { in: ids }, status: "READY" } }), 2);
      assert.ok(p.counts.deferred > 2, `deferred ${p.counts.deferred} times, more than the job's 2 attempts`);
      assert.equal((await jobs.failed()).length, 0);
    } finally {
      await Promise.all([jobs.close(), p.runner.stop()]);
      await deleteRedisKeys(prefix);
    }
  });
});

describe("in process (embedded database)", { timeout: 90_000 }, () => {
  const rt = suiteTestRuntime();

  async function waitingTodo(content: string) {
    const { prisma } = rt;
    const user = await createTestUser(prisma);
    const project = await prisma.project.create({ data: { ownerId: user.id, name: "Restart" } });
    return createWaitingTodo(prisma, { projectId: project.id, userId: user.id }, content);
  }

  /** The next process: its job backend runs what is due until idle; the todo with its replies afterwards. */
  async function nextProcessFinishes(runner: TurnRunner, todoId: string) {
    const { prisma } = rt;
    const next = agentProcess(runner);
    const jobs = new InProcessJobs(prisma, [next.job], { pollMs: 20, soleWorker: true, lanes: { agent: 2 } });
    await jobs.start();
    await jobs.idle();
    await next.runner.idle();
    await jobs.close();
    return prisma.todo.findUniqueOrThrow({ where: { id: todoId }, include: { messages: { where: { role: "assistant" } } } });
  }

  test("a turn queued when the process stopped runs after the restart", async () => {
    const { prisma } = rt;
    const todo = await waitingTodo("Trip:\n- passport\n- tickets");
    const first = agentProcess(localRunner({ stepMs: 0 }));
    const before = new InProcessJobs(prisma, [first.job], { pollMs: 20, soleWorker: true, lanes: { agent: 2 } });
    await enqueue(first.job, { todoId: todo.id }, { key: todo.id }, before); // never started: the process stops first
    await before.close();
    assert.equal(await prisma.job.count({ where: { name: "agent.turn", key: todo.id, state: "PENDING" } }), 1);

    const second = agentProcess(localRunner({ stepMs: 0 }));
    const after = new InProcessJobs(prisma, [second.job], { pollMs: 20, soleWorker: true, lanes: { agent: 2 } });
    await after.start();
    await after.idle();
    await second.runner.idle();
    await after.close();
    assert.equal((await prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "READY");
    assert.equal(second.counts.processed, 1);
    assert.equal(await prisma.job.count({ where: { key: todo.id } }), 0);
  });

  test("a turn cut off by a restart resumes in the next process and completes once", async () => {
    const { prisma } = rt;
    const todo = await waitingTodo("resume me");
    const pieces = Array.from({ length: 30 }, (_, i) => `p${i} `);
    const provider = () => scriptedProvider([{ text: pieces }], { stepMs: 10 });
    const runner = (leaseMs: number) => new TurnRunner({ providers: { fake: provider() }, defaultProvider: "fake", maxConcurrent: 2, maxPerUser: 2, flushMs: 0, persistMs: 0, leaseMs });
    const first = agentProcess(runner(60_000));
    const jobsA = new InProcessJobs(prisma, [first.job], { pollMs: 20, soleWorker: true, lanes: { agent: 2 } });
    await jobsA.start();
    await enqueue(first.job, { todoId: todo.id }, { key: todo.id }, jobsA);
    while (!(await prisma.message.findFirst({ where: { todoId: todo.id, role: "assistant", content: { not: "" } } }))) await new Promise((r) => setTimeout(r, 5));
    // "Crash": the job is left RUNNING, and the lease held for a minute more, as a dead process leaves
    // them (the row's lock is no longer this backend's, so stopping the runner writes nothing to it).
    await jobsA.close({ graceMs: 0 });
    await prisma.job.updateMany({ where: { key: todo.id }, data: { lockedBy: "dead-process" } });
    await first.runner.stop();
    await prisma.todo.update({ where: { id: todo.id }, data: { leaseOwner: "dead-process", leaseUntil: new Date(Date.now() + 60_000) } });
    assert.equal((await prisma.job.findFirstOrThrow({ where: { key: todo.id } })).state, "RUNNING");

    // The next process on the embedded database: leases void (server/main.ts releaseLeases), then the jobs.
    const { releaseLeases } = await import("./scheduler.ts");
    await releaseLeases();
    const after = await nextProcessFinishes(runner(60_000), todo.id);
    assert.equal(after.status, "READY");
    assert.equal(after.messages.length, 1);
    assert.equal(after.messages[0]!.content, pieces.join(""), "resumed where it stopped, nothing repeated or lost");
    assert.equal((after.workflow as { currentTurn?: unknown }).currentTurn, undefined);
  });

  test("a shutdown mid-turn puts the turn's job back without using an attempt; the next process finishes it", async () => {
    const { prisma } = rt;
    const todo = await waitingTodo("shut down");
    const pieces = Array.from({ length: 30 }, (_, i) => `s${i} `);
    const runner = () => new TurnRunner({ providers: { fake: scriptedProvider([{ text: pieces }], { stepMs: 10 }) }, defaultProvider: "fake", maxConcurrent: 2, maxPerUser: 2, flushMs: 0, persistMs: 0 });
    const first = agentProcess(runner());
    const jobsA = new InProcessJobs(prisma, [first.job], { pollMs: 20, soleWorker: true, lanes: { agent: 2 } });
    await jobsA.start();
    await enqueue(first.job, { todoId: todo.id }, { key: todo.id }, jobsA);
    while (!(await prisma.message.findFirst({ where: { todoId: todo.id, role: "assistant", content: { not: "" } } }))) await new Promise((r) => setTimeout(r, 5));
    // As server/main.ts shuts down: the agent stops, the backend closes.
    await Promise.all([first.runner.stop(), jobsA.close()]);
    const job = await prisma.job.findFirstOrThrow({ where: { key: todo.id } });
    assert.deepEqual([job.state, job.attempts], ["PENDING", 0]);

    const after = await nextProcessFinishes(runner(), todo.id);
    assert.equal(after.status, "READY");
    assert.equal(after.messages[0]!.content, pieces.join(""));
    assert.equal((after.messages[0]!.usage as { interrupted?: boolean }).interrupted, undefined);
  });

  test("a start while the turn's job runs (a message as the turn ends) runs the job once more", async () => {
    const { prisma } = rt;
    const todo = await waitingTodo("first");
    const p = agentProcess(localRunner({ stepMs: 0 }));
    let runs = 0;
    const holder: { jobs?: InProcessJobs } = {};
    const job = defineTurnJob(() => ({
      runNow: async (todoId, userId) => {
        const outcome = await p.runner.runNow(todoId, userId);
        if (++runs === 1) {
          // After the turn ended READY, before its job finished: the message's start finds the job running.
          await prisma.todo.update({ where: { id: todoId }, data: { status: "RUNNING" } });
          await prisma.message.create({ data: { todoId, role: "user", content: "second", state: "PENDING" } });
          await enqueue(job, { todoId }, { key: todoId }, holder.jobs);
        }
        return outcome;
      },
    }));
    const jobs = (holder.jobs = new InProcessJobs(prisma, [job], { pollMs: 20, lanes: { agent: 2 } }));
    await jobs.start();
    await enqueue(job, { todoId: todo.id }, { key: todo.id }, jobs);
    await jobs.idle();
    await p.runner.idle();
    await jobs.close();
    assert.equal(runs, 2);
    assert.equal(await prisma.message.count({ where: { todoId: todo.id, role: "assistant", state: "DONE" } }), 2);
    assert.equal((await prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "READY");
  });
});
