import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { deleteRedisKeys, withRedis } from "../testing/redis.ts";
import { suiteTestRuntime } from "../testing/runtime.ts";
import { sendMailJob } from "../email/send-job.ts";
import { BullmqJobs } from "./bullmq.ts";
import { defer, defineJob, type JobBackend, type JobContext, type JobDefinition } from "./define.ts";
import { InProcessJobs } from "./in-process.ts";
import { enqueue } from "./index.ts";
import { effectKey, runOnce } from "./once.ts";

const rt = suiteTestRuntime();
const redis = withRedis(before);

/** A promise with its resolve function, to hold a handler until the test lets it go. */
function gate<T = void>() {
  let open!: (v: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}

/** Polls until `check` holds (no time limit of its own: the suites' timeout ends a stuck test). */
async function until(check: () => boolean | Promise<boolean>) {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

const payload = z.object({ n: z.number().int() });

/**
 * Keyed jobs on either backend: a job that failed for good holds its key, unless it was defined
 * with failedFreesKey; and the next job with a key carries out its effects anew (ctx.once), while
 * the same job retried does not.
 */
function keyedJobs(prefix: string) {
  const effects: string[] = [];
  let failing = true;
  const body = async (_data: unknown, ctx: JobContext) => {
    await ctx.once("effect", async (key) => void effects.push(key));
    if (failing) throw new Error("after the effect");
  };
  const holds = defineJob(`test.${prefix}-holds`, payload, body, { attempts: 1 });
  const frees = defineJob(`test.${prefix}-frees`, payload, body, { attempts: 1, failedFreesKey: true });
  return {
    jobs: [holds, frees],
    async check(backend: JobBackend) {
      const failed = async () => (await backend.failed()).filter((f) => f.name === holds.name || f.name === frees.name);
      await backend.start();
      const a = await enqueue(holds, { n: 1 }, { key: "k" }, backend);
      await backend.idle();
      assert.equal(await enqueue(holds, { n: 2 }, { key: "k" }, backend), a, "failed, it holds its key");
      await backend.idle();
      assert.equal(effects.length, 1);

      await enqueue(frees, { n: 1 }, { key: "k" }, backend);
      await backend.idle();
      assert.equal(effects.length, 2);
      assert.deepEqual((await failed()).map((f) => f.name).sort(), [holds.name, frees.name].sort());
      await enqueue(frees, { n: 2 }, { key: "k" }, backend);
      await backend.idle();
      assert.equal(effects.length, 3, "the next job with the key ran, and its effect was its own");
      assert.deepEqual((await failed()).map((f) => f.name).sort(), [holds.name, frees.name].sort(), "the failed one was replaced, not added to");
      assert.equal(new Set(effects).size, 3);

      // Retried, the same job does not repeat its effect; finished, its key is free and the next one's effect happens.
      failing = false;
      const failedFree = async () => (await failed()).filter((f) => f.name === frees.name);
      assert.equal(await backend.retry((await failedFree())[0]!.id), true);
      await until(async () => (await failedFree()).length === 0);
      await backend.idle();
      assert.equal(effects.length, 3);
      await enqueue(frees, { n: 3 }, { key: "k" }, backend);
      await backend.idle();
      assert.equal(effects.length, 4);
      assert.equal(new Set(effects).size, 4);
    },
  };
}

describe("in-process backend (state in the database)", { timeout: 60_000 }, () => {
  test("a job waiting when the backend closes runs after it reopens on the same database", async () => {
    const { prisma } = rt;
    const seen: number[] = [];
    const job = defineJob("test.resume-pending", payload, async ({ n }) => void seen.push(n));
    const first = new InProcessJobs(prisma, [job], { pollMs: 20 });
    const id = await enqueue(job, { n: 7 }, {}, first); // never started: the process "dies" before running it
    await first.close();
    assert.equal((await prisma.job.findUniqueOrThrow({ where: { id } })).state, "PENDING");

    const second = new InProcessJobs(prisma, [job], { pollMs: 20 });
    await second.start();
    await second.idle();
    await second.close();
    assert.deepEqual(seen, [7]);
    assert.equal(await prisma.job.count({ where: { id } }), 0, "a finished job's row is gone");
  });

  test("a run cut off by a restart is resumed by the next process, and its effect happens once", async () => {
    const { prisma } = rt;
    const hold = gate();
    const started = gate<number>();
    const effects: string[] = [];
    const attempts: number[] = [];
    const job = defineJob("test.resume-running", payload, async ({ n }, ctx) => {
      attempts.push(ctx.attempt);
      await ctx.once("effect", async (key) => void effects.push(key));
      if (ctx.attempt === 1) {
        started.open(n);
        await hold.promise; // the first process never gets past this
      }
    });
    const first = new InProcessJobs(prisma, [job], { pollMs: 20, soleWorker: true });
    await first.start();
    const id = await enqueue(job, { n: 1 }, {}, first);
    assert.equal(await started.promise, 1);
    await first.close({ graceMs: 0 }); // "crash": the run is left RUNNING
    assert.equal((await prisma.job.findUniqueOrThrow({ where: { id } })).state, "RUNNING");

    const second = new InProcessJobs(prisma, [job], { pollMs: 20, soleWorker: true });
    await second.start();
    await second.idle();
    await second.close();
    hold.open();
    assert.deepEqual(attempts, [1, 2]);
    assert.deepEqual(effects, [effectKey(job.name, id, "effect")], "the effect ran in the first run only");
    assert.equal(await prisma.job.count({ where: { id } }), 0);
  });

  test("on a shared database a second worker takes over a run once its lock lapses", async () => {
    const { prisma } = rt;
    const hold = gate();
    const started = gate();
    const runs: string[] = [];
    const job = defineJob("test.lock-lapse", payload, async (_data, ctx) => {
      runs.push(`attempt ${ctx.attempt}`);
      if (ctx.attempt === 1) {
        started.open();
        await hold.promise;
      }
    });
    const first = new InProcessJobs(prisma, [job], { pollMs: 20, lockMs: 150 });
    await first.start();
    const id = await enqueue(job, { n: 1 }, {}, first);
    await started.promise;
    await first.close({ graceMs: 0 }); // stops renewing its lock
    const second = new InProcessJobs(prisma, [job], { pollMs: 20, lockMs: 150 });
    await second.start();
    await until(async () => (await prisma.job.count({ where: { id } })) === 0);
    await second.close();
    hold.open();
    assert.deepEqual(runs, ["attempt 1", "attempt 2"]);
  });

  test("a job whose runs keep being cut off fails once its attempts are used up", async () => {
    const { prisma } = rt;
    let runs = 0;
    const job = defineJob("test.cut-off", payload, async () => void runs++, { attempts: 2 });
    // Two runs already claimed by processes that died (attempts counts claims), the lock lapsed.
    const { id } = await prisma.job.create({
      data: { name: job.name, data: { n: 1 }, maxAttempts: 2, attempts: 2, state: "RUNNING", lockedBy: "dead", lockedUntil: new Date(Date.now() - 1000) },
    });
    const jobs = new InProcessJobs(prisma, [job], { pollMs: 10 });
    await jobs.start();
    await until(async () => (await prisma.job.findUniqueOrThrow({ where: { id } })).state === "FAILED");
    await jobs.close();
    assert.equal(runs, 0);
    const failed = (await jobs.failed()).find((f) => f.id === id);
    assert.match(failed!.error, /cut off 2 times/);
    await prisma.job.delete({ where: { id } });
  });

  test("a job that throws is retried with backoff, then listed as failed; retry runs it again", async () => {
    const { prisma } = rt;
    let failing = true;
    const attempts: number[] = [];
    const job = defineJob(
      "test.always-throws",
      payload,
      async (_data, ctx) => {
        attempts.push(ctx.attempt);
        if (failing) throw new Error(`boom ${ctx.attempt}`);
      },
      { attempts: 3, backoffMs: 5 },
    );
    const jobs = new InProcessJobs(prisma, [job], { pollMs: 10 });
    await jobs.start();
    try {
      const id = await enqueue(job, { n: 1 }, {}, jobs);
      await jobs.idle();
      assert.deepEqual(attempts, [1, 2, 3]);
      const failed = (await jobs.failed()).filter((f) => f.name === job.name);
      assert.equal(failed.length, 1);
      assert.equal(failed[0]!.id, id);
      assert.equal(failed[0]!.attempts, 3);
      assert.equal(failed[0]!.error, "boom 3");

      failing = false;
      assert.equal(await jobs.retry(id), true);
      await jobs.idle();
      assert.deepEqual(attempts, [1, 2, 3, 1]);
      assert.equal((await jobs.failed()).filter((f) => f.name === job.name).length, 0);
      assert.equal(await jobs.retry(id), false, "nothing left to retry");
    } finally {
      await jobs.close();
    }
  });

  test("the dedupe key adds one job; a delayed job waits; bad data is refused at enqueue", async () => {
    const { prisma } = rt;
    const seen: number[] = [];
    const job = defineJob("test.dedupe", payload, async ({ n }) => void seen.push(n));
    const jobs = new InProcessJobs(prisma, [job], { pollMs: 10 });
    try {
      const a = await enqueue(job, { n: 1 }, { key: "invite:42" }, jobs);
      const b = await enqueue(job, { n: 2 }, { key: "invite:42" }, jobs);
      assert.equal(a, b);
      const later = await enqueue(job, { n: 3 }, { delay: 3_600_000 }, jobs);
      await assert.rejects(enqueue(job, { n: 1.5 }, {}, jobs), z.ZodError);
      await assert.rejects(enqueue(job, { n: 1 }, { delay: Number.NaN }, jobs), /delay must be/);
      await assert.rejects(enqueue(job, { n: 1 }, { delay: -1 }, jobs), /delay must be/);
      await assert.rejects(enqueue(job, { n: 1 }, { key: "" }, jobs), /key must be/);
      await assert.rejects(enqueue(defineJob("test.unlisted", payload, async () => {}), { n: 1 }, {}, jobs), /not one this backend runs/);
      await jobs.start();
      await until(() => seen.length === 1);
      await until(async () => (await prisma.job.count({ where: { id: a } })) === 0);
      assert.deepEqual(seen, [1]);
      const delayed = await prisma.job.findUniqueOrThrow({ where: { id: later } });
      assert.equal(delayed.state, "PENDING");
      assert.ok(delayed.runAt.getTime() > Date.now() + 3_000_000);
      // Once the first has finished, the key is free again.
      const c = await enqueue(job, { n: 4 }, { key: "invite:42" }, jobs);
      assert.notEqual(c, a);
      await until(() => seen.length === 2);
      assert.deepEqual(seen, [1, 4]);
      await prisma.job.delete({ where: { id: later } });
    } finally {
      await jobs.close();
    }
  });
});

describe("keyed jobs (in process)", { timeout: 60_000 }, () => {
  test("a failed job holds its key unless defined with failedFreesKey; each job with a key has its own effects", async () => {
    const keyed = keyedJobs("keyed");
    const jobs = new InProcessJobs(rt.prisma, keyed.jobs, { pollMs: 10 });
    try {
      await keyed.check(jobs);
    } finally {
      await jobs.close();
      await rt.prisma.job.deleteMany({ where: { name: { in: keyed.jobs.map((j) => j.name) } } });
    }
  });
});

describe("defer, rerun, lanes and the failure hook (in process)", { timeout: 60_000 }, () => {
  test("ctx.defer puts the job back without counting an attempt", async () => {
    const { prisma } = rt;
    const attempts: number[] = [];
    const job = defineJob(
      "test.defers",
      payload,
      async (_data, ctx) => {
        attempts.push(ctx.attempt);
        if (attempts.length <= 3) ctx.defer(5); // more often than its one attempt would allow
      },
      { attempts: 1 },
    );
    const jobs = new InProcessJobs(prisma, [job], { pollMs: 10 });
    await jobs.start();
    try {
      const id = await enqueue(job, { n: 1 }, {}, jobs);
      await jobs.idle();
      assert.deepEqual(attempts, [1, 1, 1, 1]);
      assert.equal(await prisma.job.count({ where: { id } }), 0, "finished, not failed");
    } finally {
      await jobs.close();
    }
  });

  test("a job that fails for good calls its failure hook once, with the error", async () => {
    const { prisma } = rt;
    const hooked: unknown[] = [];
    const job = defineJob(
      "test.hooked",
      payload,
      async ({ n }) => {
        throw new Error(`nope ${n}`);
      },
      { attempts: 2, backoffMs: 5, onFailed: async (data, failure) => void hooked.push({ data, ...failure }) },
    );
    const jobs = new InProcessJobs(prisma, [job], { pollMs: 10 });
    await jobs.start();
    try {
      await enqueue(job, { n: 3 }, {}, jobs);
      await jobs.idle();
      assert.deepEqual(hooked, [{ data: { n: 3 }, error: "nope 3", lost: false }]);
    } finally {
      await jobs.close();
    }
  });

  test("rerun: enqueued with its key while running, the job runs once more after; while waiting, nothing is added", async () => {
    const { prisma } = rt;
    const hold = gate();
    const started = gate();
    const runs: number[] = [];
    const job = defineJob(
      "test.rerun",
      payload,
      async ({ n }) => {
        runs.push(n);
        if (runs.length === 1) {
          started.open();
          await hold.promise;
        }
      },
      { rerun: true },
    );
    const jobs = new InProcessJobs(prisma, [job], { pollMs: 10 });
    await jobs.start();
    try {
      const a = await enqueue(job, { n: 1 }, { key: "k" }, jobs);
      await started.promise;
      assert.equal(await enqueue(job, { n: 2 }, { key: "k" }, jobs), a, "the running job's id");
      assert.equal(await enqueue(job, { n: 3 }, { key: "k" }, jobs), a);
      hold.open();
      await jobs.idle();
      assert.deepEqual(runs, [1, 1], "once more (with its data), not once per enqueue");
    } finally {
      await jobs.close();
    }
  });

  test("a lane's jobs take its own slots: a full lane does not hold up the default lane", async () => {
    const { prisma } = rt;
    const hold = gate();
    let slowRunning = 0;
    const slow = defineJob("test.lane-slow", payload, async () => {
      slowRunning++;
      await hold.promise;
    }, { lane: "slow" });
    const quick: number[] = [];
    const fast = defineJob("test.lane-fast", payload, async ({ n }) => void quick.push(n));
    const jobs = new InProcessJobs(prisma, [slow, fast], { pollMs: 10, concurrency: 1, lanes: { slow: 2 } });
    await jobs.start();
    try {
      for (let i = 0; i < 3; i++) await enqueue(slow, { n: i }, {}, jobs);
      await until(() => slowRunning === 2);
      await enqueue(fast, { n: 7 }, {}, jobs);
      await until(() => quick.length === 1);
      assert.equal(slowRunning, 2, "the slow lane runs two at once, the third waits");
      hold.open();
      await jobs.idle();
      assert.equal(slowRunning, 3);
    } finally {
      hold.open();
      await jobs.close();
    }
  });
});

describe("ctx.once", { timeout: 60_000 }, () => {
  test("runs an effect once across two runs and hands back the first result", async () => {
    const { prisma } = rt;
    let calls = 0;
    const key = `test:${randomUUID()}:charge`;
    const first = await runOnce(prisma, key, async (k) => ({ charged: ++calls, key: k }));
    const second = await runOnce(prisma, key, async (k) => ({ charged: ++calls, key: k }));
    assert.equal(calls, 1);
    assert.deepEqual(second, first);
    assert.deepEqual(first, { charged: 1, key });
    // Another effect of the same job is its own.
    await runOnce(prisma, `${key}-refund`, async () => void calls++);
    assert.equal(calls, 2);
  });

  test("the mail job sends one message when it runs twice", async () => {
    const { prisma, outboxDir } = rt;
    const jobId = randomUUID();
    const ctx = (attempt: number): JobContext => ({
      jobId,
      attempt,
      once: (effect, fn) => runOnce(prisma, effectKey(sendMailJob.name, jobId, effect), fn),
      defer,
    });
    const to = `once-${randomUUID().slice(0, 8)}@unit.example.com`;
    const mail = sendMailJob.schema.parse({ to, subject: "Invite", text: "Join us" });
    await sendMailJob.handler(mail, ctx(1));
    await sendMailJob.handler(mail, ctx(2));
    const files = await readdir(outboxDir);
    assert.equal(files.length, 1, files.join(", "));
    // And a crash between the send and its record: the mailer itself sends once per key.
    const key = effectKey(sendMailJob.name, randomUUID(), "send");
    const a = await rt.runtime.mailer.send(mail, { idempotencyKey: key });
    const b = await rt.runtime.mailer.send(mail, { idempotencyKey: key });
    assert.equal(a.id, b.id);
    assert.equal((await readdir(outboxDir)).length, 2);
  });
});

describe("BullMQ backend (REDIS_URL)", { timeout: 60_000 }, () => {
  async function open(jobs: JobDefinition[]): Promise<{ backend: JobBackend; prefix: string }> {
    const prefix = `todo-test-jobs-${randomUUID()}`;
    return { backend: await BullmqJobs.open(rt.prisma, redis.url, jobs, { prefix }), prefix };
  }

  test("a job that throws is retried with backoff, then listed as failed; retry runs it again", async (t) => {
    if (redis.skipReason()) return t.skip(redis.skipReason());
    let failing = true;
    const attempts: number[] = [];
    const job = defineJob(
      "test.redis-throws",
      payload,
      async (_data, ctx) => {
        attempts.push(ctx.attempt);
        if (failing) throw new Error(`boom ${ctx.attempt}`);
      },
      { attempts: 3, backoffMs: 5 },
    );
    const { backend, prefix } = await open([job]);
    try {
      await backend.start();
      const id = await enqueue(job, { n: 1 }, {}, backend);
      await backend.idle();
      assert.deepEqual(attempts, [1, 2, 3]);
      const failed = await backend.failed();
      assert.equal(failed.length, 1);
      assert.equal(failed[0]!.id, id);
      assert.equal(failed[0]!.name, job.name);
      assert.equal(failed[0]!.attempts, 3);
      assert.equal(failed[0]!.error, "boom 3");

      failing = false;
      assert.equal(await backend.retry(id), true);
      await until(async () => (await backend.failed()).length === 0 && attempts.length === 4);
      await backend.idle();
      assert.deepEqual(attempts, [1, 2, 3, 1]);
      assert.equal(await backend.retry(id), false);
    } finally {
      await backend.close();
      await deleteRedisKeys(prefix);
    }
  });

  test("the dedupe key adds one job, and ctx.once holds across retries", async (t) => {
    if (redis.skipReason()) return t.skip(redis.skipReason());
    const effects: string[] = [];
    const job = defineJob(
      "test.redis-once",
      payload,
      async (_data, ctx) => {
        await ctx.once("effect", async (key) => void effects.push(key));
        if (ctx.attempt === 1) throw new Error("after the effect");
      },
      { attempts: 2, backoffMs: 5 },
    );
    const { backend, prefix } = await open([job]);
    try {
      const a = await enqueue(job, { n: 1 }, { key: "charge:1" }, backend);
      const b = await enqueue(job, { n: 1 }, { key: "charge:1" }, backend);
      assert.equal(a, b);
      await backend.start();
      await backend.idle();
      assert.equal(effects.length, 1);
      assert.ok(effects[0]!.startsWith(`${job.name}:${a}@`), effects[0]);
      assert.equal((await backend.failed()).length, 0);
    } finally {
      await backend.close();
      await backend.close(); // the server's shutdown and app.close() both close it
      await deleteRedisKeys(prefix);
    }
  });

  test("ctx.defer puts the job back without counting an attempt", async (t) => {
    if (redis.skipReason()) return t.skip(redis.skipReason());
    const attempts: number[] = [];
    const job = defineJob(
      "test.redis-defers",
      payload,
      async (_data, ctx) => {
        attempts.push(ctx.attempt);
        if (attempts.length <= 3) ctx.defer(5);
      },
      { attempts: 1 },
    );
    const { backend, prefix } = await open([job]);
    try {
      await backend.start();
      await enqueue(job, { n: 1 }, {}, backend);
      await backend.idle();
      assert.deepEqual(attempts, [1, 1, 1, 1]);
      assert.equal((await backend.failed()).length, 0);
    } finally {
      await backend.close();
      await deleteRedisKeys(prefix);
    }
  });

  test("a failed job holds its key unless defined with failedFreesKey; each job with a key has its own effects", async (t) => {
    if (redis.skipReason()) return t.skip(redis.skipReason());
    const keyed = keyedJobs("redis-keyed");
    const { backend, prefix } = await open(keyed.jobs);
    try {
      await keyed.check(backend);
    } finally {
      await backend.close();
      await deleteRedisKeys(prefix);
    }
  });

  test("a job that fails for good calls its failure hook once", async (t) => {
    if (redis.skipReason()) return t.skip(redis.skipReason());
    const hooked: unknown[] = [];
    const job = defineJob(
      "test.redis-hooked",
      payload,
      async ({ n }) => {
        throw new Error(`nope ${n}`);
      },
      { attempts: 2, backoffMs: 5, onFailed: async (data, failure) => void hooked.push({ data, ...failure }) },
    );
    const { backend, prefix } = await open([job]);
    try {
      await backend.start();
      await enqueue(job, { n: 4 }, {}, backend);
      await backend.idle();
      await until(() => hooked.length === 1);
      assert.deepEqual(hooked, [{ data: { n: 4 }, error: "nope 4", lost: false }]);
    } finally {
      await backend.close();
      await deleteRedisKeys(prefix);
    }
  });
});

describe("the runtime's backend", { timeout: 60_000 }, () => {
  test("enqueue without a backend argument queues on runtime().jobs, which runs registered jobs once started", async () => {
    const { runtime, prisma, outboxDir } = rt;
    const to = `runtime-${randomUUID().slice(0, 8)}@unit.example.com`;
    const id = await enqueue(sendMailJob, { to, subject: "Welcome", text: "Hello" });
    assert.equal((await prisma.job.findUniqueOrThrow({ where: { id } })).name, "mail.send");
    await assert.rejects(enqueue(sendMailJob, { to: "not an address", subject: "x", text: "y" }), z.ZodError);
    await runtime.jobs!.start();
    await runtime.jobs!.idle();
    const files = await readdir(outboxDir);
    const mails = await Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(outboxDir, f), "utf8")) as { to: string; subject: string }));
    assert.deepEqual(mails.filter((m) => m.to === to).map((m) => m.subject), ["Welcome"]);
    assert.equal(await prisma.job.count({ where: { id } }), 0);
    assert.equal(await prisma.jobEffect.count({ where: { key: effectKey("mail.send", id, "send") } }), 1);
  });
});
