import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { log } from "../log.ts";
import { backoffDelay, defer, JobDeferred, laneOf, laneSlots, type EnqueueOptions, type FailedJob, type JobBackend, type JobDefinition, type LaneConcurrency } from "./define.ts";
import { effectKey, runOnce } from "./once.ts";

export type InProcessOptions = {
  /** How often the worker looks for due jobs when nothing woke it (default 500 ms). */
  pollMs?: number;
  /** Jobs run at once (default 4): the default lane's runs. */
  concurrency?: number;
  /** Runs at once of each other lane (JobOptions.lane), e.g. `{ agent: 16 }`. */
  lanes?: LaneConcurrency;
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
  private readonly slots: Map<string, number>;
  /** The job names of each lane but the default (whose jobs are all the others). */
  private readonly laneNames = new Map<string, string[]>();
  /** Runs in flight per lane, and slots taken by an add that inserts its job claimed. */
  private readonly busy = new Map<string, number>();
  /** Lanes that may have due jobs beyond what the last claim took: a finished run looks again at once. */
  private readonly backlog = new Set<string>();
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
    this.slots = laneSlots({ ...opts.lanes, default: opts.concurrency ?? opts.lanes?.default ?? 4 });
    for (const j of jobs) {
      const lane = laneOf(j, this.slots);
      if (lane !== "default") this.laneNames.set(lane, [...(this.laneNames.get(lane) ?? []), j.name]);
    }
    this.lockMs = opts.lockMs ?? 60_000;
    this.soleWorker = opts.soleWorker ?? false;
  }

  async add(job: JobDefinition, data: unknown, opts: EnqueueOptions = {}): Promise<string> {
    if (this.jobs.get(job.name) !== job) throw new Error(`job ${job.name} is not one this backend runs (server/jobs/registry.ts)`);
    const now = new Date();
    const runAt = new Date(now.getTime() + Math.max(opts.delay ?? 0, 0));
    const lane = laneOf(job, this.slots);
    // A job due now, with a slot free in its lane here, is inserted claimed by this process and run
    // at once: no claim statement, no wait for the poller.
    const claim = !opts.delay && this.started && !this.closed && this.free(lane) > 0;
    if (claim) this.take(lane);
    const newId = randomUUID();
    const key = opts.key ?? null;
    let id: string | undefined;
    try {
      const state = claim ? "RUNNING" : "PENDING";
      const lockedBy = claim ? this.owner : null;
      const lockedUntil = claim ? new Date(now.getTime() + this.lockMs) : null;
      const values = Prisma.sql`(${newId}, ${job.name}, ${JSON.stringify(data)}::jsonb, ${key}, ${state}::"JobState", ${claim ? 1 : 0}, ${job.attempts}, ${runAt}, ${lockedBy}, ${lockedUntil}, ${now})`;
      const insert = Prisma.sql`INSERT INTO "Job" ("id", "name", "data", "key", "state", "attempts", "maxAttempts", "runAt", "lockedBy", "lockedUntil", "updatedAt") VALUES ${values}`;
      // One live job per (name, key): the existing one wins; a rerun job found running runs once more after.
      if (job.failedFreesKey && key !== null) await this.prisma.$executeRaw`DELETE FROM "Job" WHERE "name" = ${job.name} AND "key" = ${key} AND "state" = 'FAILED'`;
      const rows = await this.prisma.$queryRaw<{ id: string }[]>(
        job.rerun && key !== null
          ? Prisma.sql`${insert} ON CONFLICT ("name", "key") DO UPDATE SET "again" = true WHERE "Job"."state" = 'RUNNING' RETURNING "id"`
          : Prisma.sql`${insert} ON CONFLICT ("name", "key") DO NOTHING RETURNING "id"`,
      );
      id = rows[0]?.id;
      if (id === undefined && key !== null) id = (await this.prisma.job.findUnique({ where: { name_key: { name: job.name, key } }, select: { id: true } }))?.id;
      // (Gone between the two statements: it just finished, so the key is free again.)
      if (id === undefined) return await this.add(job, data, opts);
    } finally {
      if (claim && id !== newId) this.give(lane);
    }
    if (claim && id === newId) this.launch({ id, name: job.name, data, attempts: 1, maxAttempts: job.attempts }, lane);
    else if (!opts.delay && id === newId) {
      this.backlog.add(lane);
      this.wake();
    }
    return id;
  }

  /** Slots free in the lane (runs in flight and slots an add is taking count as busy). */
  private free(lane: string): number {
    return (this.slots.get(lane) ?? 0) - (this.busy.get(lane) ?? 0);
  }
  private take(lane: string) {
    this.busy.set(lane, (this.busy.get(lane) ?? 0) + 1);
  }
  private give(lane: string) {
    this.busy.set(lane, (this.busy.get(lane) ?? 1) - 1);
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
    if (this.closed) return;
    const free = [...this.slots.keys()].map((lane) => [lane, this.free(lane)] as const).filter(([, n]) => n > 0);
    if (free.length === 0) return;
    for (const [lane] of free) this.backlog.delete(lane);
    const claimed = await this.claim(free);
    const taken = new Map<string, number>();
    for (const row of claimed) {
      const def = this.jobs.get(row.name);
      const lane = def ? laneOf(def, this.slots) : "default";
      taken.set(lane, (taken.get(lane) ?? 0) + 1);
      this.take(lane);
      this.launch(row, lane);
    }
    // A lane that got all it asked for may have more waiting.
    for (const [lane, n] of free) if ((taken.get(lane) ?? 0) >= n) this.backlog.add(lane);
  }

  /** Runs a claimed job in one of its lane's slots (already taken). */
  private launch(row: Claimed, lane: string) {
    // The run begins on a later turn of the event loop, not inside the one that queued it: with the
    // embedded database no statement waits for I/O, so a job queued by a request would otherwise run
    // whole before the request's events fan out (server/realtime/sockets.ts) and its response is sent.
    const run = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.run(row)).finally(() => {
      this.running.delete(row.id);
      this.give(lane);
      if (this.backlog.has(lane)) this.wake();
    });
    this.running.set(row.id, run);
  }

  /**
   * Takes due jobs, up to each lane's free slots: waiting ones whose time has come, and running ones
   * whose worker stopped renewing its lock. One statement, whatever the number of lanes.
   */
  private async claim(free: (readonly [string, number])[]): Promise<Claimed[]> {
    // Times from this process's clock, as Prisma writes them (a TIMESTAMP without zone, in UTC).
    const now = new Date();
    const until = new Date(now.getTime() + this.lockMs);
    const own = [...this.laneNames.values()].flat();
    const picks = free.map(([lane, n], i) => {
      const names = this.laneNames.get(lane);
      const inLane = lane === "default" ? (own.length ? Prisma.sql`AND "name" NOT IN (${Prisma.join(own)})` : Prisma.empty) : Prisma.sql`AND "name" IN (${Prisma.join(names ?? [""])})`;
      return Prisma.sql`${Prisma.raw(`l${i}`)} AS (
        SELECT "id" FROM "Job"
        WHERE (("state" = 'PENDING' AND "runAt" <= ${now}) OR ("state" = 'RUNNING' AND "lockedUntil" < ${now})) ${inLane}
        ORDER BY "runAt" ASC
        LIMIT ${n}
        FOR UPDATE SKIP LOCKED)`;
    });
    const ids = Prisma.join(
      free.map((_, i) => Prisma.raw(`SELECT "id" FROM l${i}`)),
      " UNION ALL ",
    );
    return this.prisma.$queryRaw<Claimed[]>`
      WITH ${Prisma.join(picks, ", ")}
      UPDATE "Job" SET "state" = 'RUNNING', "attempts" = "attempts" + 1, "lockedBy" = ${this.owner}, "lockedUntil" = ${until}, "updatedAt" = ${now}
      WHERE "id" IN (${ids})
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
    let parsed: { success: true; data: unknown } | { success: false; error?: Error } = { success: false };
    try {
      if (!job) throw new PermanentError(`no job named ${row.name} in server/jobs/registry.ts`);
      parsed = job.schema.safeParse(row.data);
      // Each claim counts a run, also one its process did not live to finish: a job that keeps
      // taking its process down stops here.
      if (row.attempts > row.maxAttempts) throw new LostError(`its runs were cut off ${row.attempts - 1} times (the process stopped); attempts allow ${row.maxAttempts}`);
      if (!parsed.success) throw new PermanentError(`stored data does not match the job's schema: ${parsed.error?.message}`);
      await job.handler(parsed.data, {
        jobId: row.id,
        attempt: row.attempts,
        once: (effect, fn) => runOnce(this.prisma, effectKey(row.name, row.id, effect), fn),
        defer,
      });
      if (this.closed && !this.running.has(row.id)) return; // abandoned at close: the next process owns it
      const { count } = await this.prisma.job.deleteMany({ where: { id: row.id, lockedBy: this.owner, again: false } });
      // Enqueued again while it ran (a rerun job): once more, with fresh attempts.
      if (count === 0 && job.rerun) {
        const again = await this.prisma.job.updateMany({ where: { id: row.id, lockedBy: this.owner, again: true }, data: { state: "PENDING", again: false, attempts: 0, lockedBy: null, lockedUntil: null, runAt: new Date() } });
        if (again.count) {
          this.backlog.add(laneOf(job, this.slots));
          this.wake();
        }
      }
    } catch (err) {
      if (err instanceof JobDeferred) {
        // Back to the queue; this run does not count.
        await this.prisma.job
          .updateMany({ where: { id: row.id, lockedBy: this.owner }, data: { state: "PENDING", again: false, attempts: { decrement: 1 }, lockedBy: null, lockedUntil: null, runAt: new Date(Date.now() + err.ms) } })
          .catch(() => undefined);
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      const final = err instanceof PermanentError || row.attempts >= row.maxAttempts;
      log.warn(final ? "job failed" : "job failed; retrying", { job: row.name, id: row.id, attempt: row.attempts, error: message });
      const { count } = await this.prisma.job
        .updateMany({
          where: { id: row.id, lockedBy: this.owner },
          data: final
            ? { state: "FAILED", lastError: message, lockedBy: null, lockedUntil: null, again: false }
            : { state: "PENDING", lastError: message, lockedBy: null, lockedUntil: null, runAt: new Date(Date.now() + backoffDelay(job!, row.attempts)) },
        })
        .catch(() => ({ count: 0 }));
      if (final && count && job?.onFailed && parsed.success) {
        await job.onFailed(parsed.data, { error: message, lost: err instanceof LostError }).catch((e: unknown) => log.error("a job's failure hook failed", { job: row.name, id: row.id, error: e instanceof Error ? e.message : String(e) }));
      }
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
    if (count) {
      for (const lane of this.slots.keys()) this.backlog.add(lane);
      this.wake();
    }
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
/** Its runs were cut off (the process died) more often than its attempts allow. */
class LostError extends PermanentError {}
