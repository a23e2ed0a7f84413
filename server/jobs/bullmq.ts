import { createHash } from "node:crypto";
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from "bullmq";
import { createClient } from "redis";
import type { PrismaClient } from "../db/generated/client.ts";
import { log } from "../log.ts";
import { defer, JobDeferred, laneOf, laneSlots, type EnqueueOptions, type FailedJob, type JobBackend, type JobDefinition, type LaneConcurrency } from "./define.ts";
import { effectKey, runOnce } from "./once.ts";

/** The default lane's queue; a job of another lane the backend has slots for goes to `jobs-<lane>`. */
const QUEUE = "jobs";
const queueOf = (lane: string) => (lane === "default" ? QUEUE : `${QUEUE}-${lane}`);

/** BullMQ's message for a job whose workers died mid-run more often than maxStalledCount allows. */
const STALLED = /stalled more than allowable limit/;

export type BullmqOptions = {
  /** Key prefix in Redis: config.redisPrefix (tests use their own). */
  prefix: string;
  /** Jobs this process runs at once (default 4): the default lane's runs. */
  concurrency?: number;
  /** Runs at once of each other lane (JobOptions.lane), e.g. `{ agent: 16 }`: a queue and worker each. */
  lanes?: LaneConcurrency;
  /** BullMQ's job lock: a run whose worker stopped renewing it this long is stalled (default 30 s). */
  lockMs?: number;
  /** How often each worker looks for stalled runs (default: lockMs). */
  stalledCheckMs?: number;
};

function newClient(url: string) {
  return createClient({ url });
}
type Client = ReturnType<typeof newClient>;

/**
 * With REDIS_URL: one BullMQ queue ("jobs", under the Redis prefix) for every job name (and one per
 * lane given its own slots, "jobs-<lane>"), a worker on each in every server process. Retries use
 * BullMQ's exponential backoff; a job that used up its attempts stays in BullMQ's failed set, where
 * failed() lists it and retry() puts it back. A run whose worker died is taken over by another once
 * its lock lapses (BullMQ's stalled check), once; stalled a second time, the job fails.
 */
/**
 * The id ctx.once records a job's effects under. A keyed job's BullMQ id comes from its key, so
 * the next job enqueued with that key (once this one has finished, or failed and been removed) has
 * the same id: its creation time tells them apart, and it does not change across retries.
 */
export function onceId(job: Pick<Job, "id" | "timestamp" | "opts">): string {
  return job.opts.jobId ? `${job.id}@${job.timestamp}` : job.id!;
}

export class BullmqJobs implements JobBackend {
  readonly kind = "bullmq" as const;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private clients: { quit(): Promise<unknown> }[] = [];
  private client!: Client;
  private readonly jobs: Map<string, JobDefinition>;
  private readonly slots: Map<string, number>;
  private closed = false;

  private constructor(
    private readonly prisma: PrismaClient,
    private readonly redisUrl: string,
    jobs: readonly JobDefinition[],
    private readonly opts: BullmqOptions,
  ) {
    this.jobs = new Map(jobs.map((j) => [j.name, j]));
    this.slots = laneSlots({ ...opts.lanes, default: opts.concurrency ?? opts.lanes?.default ?? 4 });
  }

  static async open(prisma: PrismaClient, redisUrl: string, jobs: readonly JobDefinition[], opts: BullmqOptions): Promise<BullmqJobs> {
    const backend = new BullmqJobs(prisma, redisUrl, jobs, opts);
    const connection = await backend.connect();
    backend.client = connection;
    for (const lane of backend.slots.keys()) backend.queues.set(lane, new Queue(queueOf(lane), { connection, prefix: opts.prefix }));
    return backend;
  }

  private async connect(): Promise<Client> {
    const client = newClient(this.redisUrl);
    client.on("error", (err) => log.warn("redis (jobs) error", { error: String(err) }));
    await client.connect();
    this.clients.push(client);
    return client;
  }

  private queueFor(job: JobDefinition): Queue {
    return this.queues.get(laneOf(job, this.slots))!;
  }

  /** The Redis key that marks a running rerun job to run once more. */
  private againKey(jobId: string): string {
    return `${this.opts.prefix}:jobs-again:${jobId}`;
  }

  async add(job: JobDefinition, data: unknown, opts: EnqueueOptions = {}): Promise<string> {
    if (this.jobs.get(job.name) !== job) throw new Error(`job ${job.name} is not one this backend runs (server/jobs/registry.ts)`);
    const queue = this.queueFor(job);
    // BullMQ ids may not contain ":"; the hash keeps any key usable, one per job name.
    const jobId = opts.key === undefined ? undefined : `${job.name}.${createHash("sha256").update(opts.key).digest("hex").slice(0, 40)}`;
    // The key finds the job running: a rerun job runs once more after (process() looks at the mark).
    // (Looked at before the add: a job added now may be taken at once, and is not one found running.
    // The add follows anyway: if the run ended in between, it queues the job afresh.)
    if (job.failedFreesKey && jobId !== undefined) {
      const failed = await queue.getJob(jobId);
      if (failed && (await failed.getState()) === "failed") await failed.remove();
    }
    if (job.rerun && jobId !== undefined && (await queue.getJobState(jobId)) === "active") await this.client.set(this.againKey(jobId), "1", { EX: 24 * 3600 });
    const added = await queue.add(job.name, data, {
      attempts: job.attempts,
      backoff: { type: "exponential", delay: job.backoffMs },
      delay: opts.delay && opts.delay > 0 ? opts.delay : undefined,
      jobId,
      removeOnComplete: true,
      removeOnFail: false,
    });
    return added.id!;
  }

  async start(): Promise<void> {
    if (this.workers.length) return;
    for (const [lane, concurrency] of this.slots) {
      const connection = await this.connect();
      const worker = new Worker(queueOf(lane), (job: Job, token?: string) => this.process(job, token), {
        connection,
        prefix: this.opts.prefix,
        concurrency,
        lockDuration: this.opts.lockMs ?? 30_000,
        stalledInterval: this.opts.stalledCheckMs ?? this.opts.lockMs ?? 30_000,
        maxStalledCount: 1, // a run whose worker died is taken over once
      });
      worker.on("failed", (job, err) => {
        if (job) void this.onRunFailed(job, err);
      });
      worker.on("error", (err) => log.warn("jobs worker error", { error: err.message }));
      this.workers.push(worker);
    }
  }

  /** Logs a failed run; one that failed for good calls its job's failure hook. */
  private async onRunFailed(job: Job, err: Error) {
    log.warn("job failed", { job: job.name, id: job.id, attempt: job.attemptsMade, error: err.message });
    const def = this.jobs.get(job.name);
    if (!def?.onFailed) return;
    try {
      if ((await job.getState()) !== "failed") return; // it will be retried
      const parsed = def.schema.safeParse(job.data);
      if (parsed.success) await def.onFailed(parsed.data, { error: err.message, lost: STALLED.test(err.message) });
    } catch (e) {
      log.error("a job's failure hook failed", { job: job.name, id: job.id, error: e instanceof Error ? e.message : String(e) });
    }
  }

  private async process(job: Job, token: string | undefined): Promise<void> {
    const def = this.jobs.get(job.name);
    // No retry can fix these: straight to the failed set.
    if (!def) throw new UnrecoverableError(`no job named ${job.name} in server/jobs/registry.ts`);
    const parsed = def.schema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`stored data does not match the job's schema: ${parsed.error.message}`);
    try {
      for (;;) {
        await def.handler(parsed.data, {
          jobId: job.id!,
          attempt: job.attemptsMade + 1,
          once: (effect, fn) => runOnce(this.prisma, effectKey(job.name, onceId(job), effect), fn),
          defer,
        });
        // Enqueued again while it ran: once more (a mark set after this look is left for the next run).
        if (!def.rerun || !(await this.client.getDel(this.againKey(job.id!)))) return;
      }
    } catch (err) {
      if (!(err instanceof JobDeferred)) throw err;
      // Back to the delayed set; BullMQ counts no attempt for it.
      await job.moveToDelayed(Date.now() + err.ms, token);
      throw new DelayedError();
    }
  }

  async close(opts: { graceMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.workers.length) {
      const grace = opts.graceMs ?? 5000;
      let timer: NodeJS.Timeout | undefined;
      const closing = Promise.all(this.workers.map((w) => w.close()));
      // A run cut off here keeps its lock until it lapses; BullMQ then hands it to another worker (stalled).
      await Promise.race([closing, new Promise((r) => (timer = setTimeout(r, grace)))]);
      clearTimeout(timer);
      if (grace === 0) await Promise.all(this.workers.map((w) => w.close(true)));
    }
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await Promise.allSettled(this.clients.map((c) => c.quit()));
  }

  async failed(): Promise<FailedJob[]> {
    const all = await Promise.all([...this.queues.values()].map((q) => q.getFailed(0, 999)));
    return all
      .flat()
      .filter((j): j is Job => Boolean(j))
      .map((j) => ({ id: j.id!, name: j.name, attempts: j.attemptsMade, error: j.failedReason ?? "", failedAt: new Date(j.finishedOn ?? j.timestamp) }))
      .sort((a, b) => b.failedAt.getTime() - a.failedAt.getTime());
  }

  async retry(id: string): Promise<boolean> {
    for (const queue of this.queues.values()) {
      const job = await queue.getJob(id);
      if (!job || !(await job.isFailed())) continue;
      await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
      return true;
    }
    return false;
  }

  async idle(): Promise<void> {
    for (;;) {
      const counts = await Promise.all([...this.queues.values()].map((q) => q.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children")));
      if (counts.every((c) => Object.values(c).every((n) => n === 0))) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
