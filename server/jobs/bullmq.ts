import { createHash } from "node:crypto";
import { Queue, UnrecoverableError, Worker, type Job } from "bullmq";
import { createClient } from "redis";
import type { PrismaClient } from "../db/generated/client.ts";
import { log } from "../log.ts";
import type { EnqueueOptions, FailedJob, JobBackend, JobDefinition } from "./define.ts";
import { effectKey, runOnce } from "./once.ts";

const QUEUE = "jobs";

export type BullmqOptions = {
  /** Key prefix in Redis: config.redisPrefix (tests use their own). */
  prefix: string;
  /** Jobs this process runs at once (default 4). */
  concurrency?: number;
};

/**
 * With REDIS_URL: one BullMQ queue ("jobs", under the Redis prefix) for every job name, a worker in
 * every server process. Retries use BullMQ's exponential backoff; a job that used up its attempts
 * stays in BullMQ's failed set, where failed() lists it and retry() puts it back.
 */
export class BullmqJobs implements JobBackend {
  readonly kind = "bullmq" as const;
  private queue!: Queue;
  private worker: Worker | undefined;
  private clients: { quit(): Promise<unknown> }[] = [];
  private readonly jobs: Map<string, JobDefinition>;
  private readonly concurrency: number;
  private closed = false;

  private constructor(
    private readonly prisma: PrismaClient,
    private readonly redisUrl: string,
    jobs: readonly JobDefinition[],
    private readonly opts: BullmqOptions,
  ) {
    this.jobs = new Map(jobs.map((j) => [j.name, j]));
    this.concurrency = opts.concurrency ?? 4;
  }

  static async open(prisma: PrismaClient, redisUrl: string, jobs: readonly JobDefinition[], opts: BullmqOptions): Promise<BullmqJobs> {
    const backend = new BullmqJobs(prisma, redisUrl, jobs, opts);
    const connection = await backend.connect();
    backend.queue = new Queue(QUEUE, { connection, prefix: opts.prefix });
    return backend;
  }

  private async connect() {
    const client = createClient({ url: this.redisUrl });
    client.on("error", (err) => log.warn("redis (jobs) error", { error: String(err) }));
    await client.connect();
    this.clients.push(client);
    return client;
  }

  async add(job: JobDefinition, data: unknown, opts: EnqueueOptions = {}): Promise<string> {
    if (this.jobs.get(job.name) !== job) throw new Error(`job ${job.name} is not one this backend runs (server/jobs/registry.ts)`);
    const added = await this.queue.add(job.name, data, {
      attempts: job.attempts,
      backoff: { type: "exponential", delay: job.backoffMs },
      delay: opts.delay && opts.delay > 0 ? opts.delay : undefined,
      // BullMQ ids may not contain ":"; the hash keeps any key usable, one per job name.
      jobId: opts.key === undefined ? undefined : `${job.name}.${createHash("sha256").update(opts.key).digest("hex").slice(0, 40)}`,
      removeOnComplete: true,
      removeOnFail: false,
    });
    return added.id!;
  }

  async start(): Promise<void> {
    if (this.worker) return;
    const connection = await this.connect();
    this.worker = new Worker(QUEUE, (job: Job) => this.process(job), { connection, prefix: this.opts.prefix, concurrency: this.concurrency });
    this.worker.on("failed", (job, err) => {
      if (job) log.warn("job failed", { job: job.name, id: job.id, attempt: job.attemptsMade, error: err.message });
    });
    this.worker.on("error", (err) => log.warn("jobs worker error", { error: err.message }));
  }

  private async process(job: Job): Promise<void> {
    const def = this.jobs.get(job.name);
    // No retry can fix these: straight to the failed set.
    if (!def) throw new UnrecoverableError(`no job named ${job.name} in server/jobs/registry.ts`);
    const parsed = def.schema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`stored data does not match the job's schema: ${parsed.error.message}`);
    await def.handler(parsed.data, {
      jobId: job.id!,
      attempt: job.attemptsMade + 1,
      once: (effect, fn) => runOnce(this.prisma, effectKey(job.name, job.id!, effect), fn),
    });
  }

  async close(opts: { graceMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.worker) {
      const grace = opts.graceMs ?? 5000;
      let timer: NodeJS.Timeout | undefined;
      // A run cut off here keeps its lock until it lapses; BullMQ then hands it to another worker (stalled).
      await Promise.race([this.worker.close(), new Promise((r) => (timer = setTimeout(r, grace)))]);
      clearTimeout(timer);
      if (grace === 0) await this.worker.close(true);
    }
    await this.queue?.close();
    await Promise.allSettled(this.clients.map((c) => c.quit()));
  }

  async failed(): Promise<FailedJob[]> {
    const jobs = await this.queue.getFailed(0, 999);
    return jobs
      .filter((j): j is Job => Boolean(j))
      .map((j) => ({ id: j.id!, name: j.name, attempts: j.attemptsMade, error: j.failedReason ?? "", failedAt: new Date(j.finishedOn ?? j.timestamp) }))
      .sort((a, b) => b.failedAt.getTime() - a.failedAt.getTime());
  }

  async retry(id: string): Promise<boolean> {
    const job = await this.queue.getJob(id);
    if (!job || !(await job.isFailed())) return false;
    await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  async idle(): Promise<void> {
    for (;;) {
      const counts = await this.queue.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children");
      if (Object.values(counts).every((n) => n === 0)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
