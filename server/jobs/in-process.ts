import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { log } from "../log.ts";
import { backoffDelay, type EnqueueOptions, type FailedJob, type JobBackend, type JobDefinition } from "./define.ts";
import { effectKey, runOnce } from "./once.ts";

export type InProcessOptions = {
  /** How often the worker looks for due jobs when nothing woke it (default 500 ms). */
  pollMs?: number;
  /** Jobs run at once (default 4). */
  concurrency?: number;
  /** A RUNNING job whose worker has not renewed its lock this long is taken over (default 60 s). */
  lockMs?: number;
  /**
   * This process is the only one on the database (the embedded PGlite): jobs left RUNNING by the
   * previous process are due again at start, without waiting for their locks to lapse.
   */
  soleWorker?: boolean;
};

type Claimed = { id: string; name: string; data: unknown; attempts: number; maxAttempts: number };

/**
 * The embedded default: jobs are rows of the Job table, so a restart resumes what was waiting or
 * running. Workers claim due rows with FOR UPDATE SKIP LOCKED (several processes on one PostgreSQL
 * server share the work) and hold a lock they renew while the handler runs.
 */
export class InProcessJobs implements JobBackend {
  readonly kind = "in-process" as const;
  private readonly owner = randomUUID();
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly lockMs: number;
  private readonly soleWorker: boolean;
  private readonly jobs: Map<string, JobDefinition>;
  private timer: NodeJS.Timeout | undefined;
  private running = new Map<string, Promise<void>>();
  private renewals = new Set<NodeJS.Timeout>();
  private started = false;
  private closed = false;
  private pumping: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly prisma: PrismaClient,
    jobs: readonly JobDefinition[],
    opts: InProcessOptions = {},
  ) {
    this.jobs = new Map(jobs.map((j) => [j.name, j]));
    this.pollMs = opts.pollMs ?? 500;
    this.concurrency = opts.concurrency ?? 4;
    this.lockMs = opts.lockMs ?? 60_000;
    this.soleWorker = opts.soleWorker ?? false;
  }

  async add(job: JobDefinition, data: unknown, opts: EnqueueOptions = {}): Promise<string> {
    if (this.jobs.get(job.name) !== job) throw new Error(`job ${job.name} is not one this backend runs (server/jobs/registry.ts)`);
    const runAt = new Date(Date.now() + Math.max(opts.delay ?? 0, 0));
    const row = { name: job.name, data: data as Prisma.InputJsonValue, maxAttempts: job.attempts, runAt };
    let id: string;
    if (opts.key === undefined) {
      id = (await this.prisma.job.create({ data: row, select: { id: true } })).id;
    } else {
      const key = opts.key;
      // One live job per (name, key): the existing one wins.
      await this.prisma.job.createMany({ data: [{ ...row, key }], skipDuplicates: true });
      id = (await this.prisma.job.findUniqueOrThrow({ where: { name_key: { name: job.name, key } }, select: { id: true } })).id;
    }
    if (!opts.delay) this.wake();
    return id;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.soleWorker) {
      const { count } = await this.prisma.job.updateMany({ where: { state: "RUNNING" }, data: { state: "PENDING", lockedBy: null, lockedUntil: null } });
      if (count) log.info("jobs: resuming runs the previous process left unfinished", { count });
    }
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for due jobs now (after an add, a finished run, or the poll timer). */
  private wake(): void {
    if (!this.started || this.closed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((err: unknown) => log.warn("jobs: could not claim jobs", { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async pump(): Promise<void> {
    const free = this.concurrency - this.running.size;
    if (free <= 0 || this.closed) return;
    const claimed = await this.claim(free);
    for (const row of claimed) {
      const run = this.run(row).finally(() => {
        this.running.delete(row.id);
        this.wake();
      });
      this.running.set(row.id, run);
    }
  }

  /** Takes up to `n` due jobs: waiting ones whose time has come, and running ones whose worker stopped renewing its lock. */
  private async claim(n: number): Promise<Claimed[]> {
    // Times from this process's clock, as Prisma writes them (a TIMESTAMP without zone, in UTC).
    const now = new Date();
    const until = new Date(now.getTime() + this.lockMs);
    return this.prisma.$queryRaw<Claimed[]>`
      UPDATE "Job" SET "state" = 'RUNNING', "attempts" = "attempts" + 1, "lockedBy" = ${this.owner}, "lockedUntil" = ${until}, "updatedAt" = ${now}
      WHERE "id" IN (
        SELECT "id" FROM "Job"
        WHERE ("state" = 'PENDING' AND "runAt" <= ${now}) OR ("state" = 'RUNNING' AND "lockedUntil" < ${now})
        ORDER BY "runAt" ASC
        LIMIT ${n}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING "id", "name", "data", "attempts", "maxAttempts"`;
  }

  private async run(row: Claimed): Promise<void> {
    const job = this.jobs.get(row.name);
    const renew = setInterval(() => {
      void this.prisma.job
        .updateMany({ where: { id: row.id, lockedBy: this.owner }, data: { lockedUntil: new Date(Date.now() + this.lockMs) } })
        .catch(() => undefined);
    }, Math.max(this.lockMs / 3, 10));
    renew.unref();
    this.renewals.add(renew);
    try {
      if (!job) throw new PermanentError(`no job named ${row.name} in server/jobs/registry.ts`);
      // Each claim counts a run, also one its process did not live to finish: a job that keeps
      // taking its process down stops here.
      if (row.attempts > row.maxAttempts) throw new PermanentError(`its runs were cut off ${row.attempts - 1} times (the process stopped); attempts allow ${row.maxAttempts}`);
      const parsed = job.schema.safeParse(row.data);
      if (!parsed.success) throw new PermanentError(`stored data does not match the job's schema: ${parsed.error.message}`);
      await job.handler(parsed.data, {
        jobId: row.id,
        attempt: row.attempts,
        once: (effect, fn) => runOnce(this.prisma, effectKey(row.name, row.id, effect), fn),
      });
      if (this.closed && !this.running.has(row.id)) return; // abandoned at close: the next process owns it
      await this.prisma.job.deleteMany({ where: { id: row.id, lockedBy: this.owner } });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const final = err instanceof PermanentError || row.attempts >= row.maxAttempts;
      log.warn(final ? "job failed" : "job failed; retrying", { job: row.name, id: row.id, attempt: row.attempts, error: message });
      await this.prisma.job
        .updateMany({
          where: { id: row.id, lockedBy: this.owner },
          data: final
            ? { state: "FAILED", lastError: message, lockedBy: null, lockedUntil: null }
            : { state: "PENDING", lastError: message, lockedBy: null, lockedUntil: null, runAt: new Date(Date.now() + backoffDelay(job!, row.attempts)) },
        })
        .catch(() => undefined);
    } finally {
      clearInterval(renew);
      this.renewals.delete(renew);
    }
  }

  async close(opts: { graceMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.pumping;
    const grace = opts.graceMs ?? 5000;
    const inFlight = Promise.allSettled([...this.running.values()]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([inFlight, new Promise((r) => (timer = setTimeout(r, grace)))]);
    clearTimeout(timer);
    // Runs still going are left RUNNING and their locks are no longer renewed: the next worker takes
    // them over (at its start with soleWorker, else once the lock lapses).
    for (const renew of this.renewals) clearInterval(renew);
    this.renewals.clear();
    this.running.clear();
  }

  async failed(): Promise<FailedJob[]> {
    const rows = await this.prisma.job.findMany({ where: { state: "FAILED" }, orderBy: { updatedAt: "desc" }, take: 1000 });
    return rows.map((r) => ({ id: r.id, name: r.name, attempts: r.attempts, error: r.lastError ?? "", failedAt: r.updatedAt }));
  }

  async retry(id: string): Promise<boolean> {
    const { count } = await this.prisma.job.updateMany({ where: { id, state: "FAILED" }, data: { state: "PENDING", attempts: 0, runAt: new Date(), lastError: null } });
    if (count) this.wake();
    return count > 0;
  }

  async idle(): Promise<void> {
    for (;;) {
      const open = await this.prisma.job.count({ where: { state: { in: ["PENDING", "RUNNING"] } } });
      if (open === 0 && this.running.size === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** A failure no retry can fix (unknown job, data that no longer fits the schema): straight to FAILED. */
class PermanentError extends Error {}
