// One way to declare background work: defineJob(name, schema, handler). The job list is
// server/jobs/registry.ts; enqueue() (server/jobs/enqueue.ts) hands a job to the process's backend.
import type { z } from "zod";

export type JobContext = {
  /** The job's id: stable across its retries (and across a restart that resumes it). */
  jobId: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /**
   * Carries out one effect (a mail, a payment) at most once per job, whatever the number of runs:
   * the first run that finishes `fn` records `effectKey` (and fn's JSON result) in the database;
   * later runs get that result back without calling `fn`. `fn` receives the effect's idempotency
   * key: pass it to the provider (Resend, Stripe) so a crash between the effect and its record
   * does not repeat the effect either.
   */
  once<T>(effectKey: string, fn: (idempotencyKey: string) => Promise<T>): Promise<T>;
  /**
   * Ends this run without counting it as an attempt: the job goes back to the queue and runs again
   * in `ms` (a resource it needs is busy). Throws a JobDeferred, which the backend catches: call it
   * as `return ctx.defer(ms)` or let it propagate; anything after it does not run.
   */
  defer(ms: number): never;
};

/** Thrown by ctx.defer: the backend re-queues the job without counting the run as an attempt. */
export class JobDeferred extends Error {
  constructor(readonly ms: number) {
    super(`deferred by ${ms} ms`);
  }
}

/** ctx.defer for a run (both backends). */
export function defer(ms: number): never {
  if (!(Number.isFinite(ms) && ms >= 0)) throw new Error("ctx.defer: ms must be a number of milliseconds, at least 0");
  throw new JobDeferred(ms);
}

/** Why a job failed for good, as its failure hook (onFailed) learns it. */
export type JobFailure = {
  /** The last run's error message. */
  error: string;
  /** The last run was cut off (its process died or stopped renewing its lock), not an error of the handler. */
  lost: boolean;
};

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  schema: S;
  handler: (data: z.output<S>, ctx: JobContext) => Promise<void>;
  /** Runs in all, the first included (default 5). */
  attempts: number;
  /** Wait before the first retry; doubled for each next one (default 1 s). */
  backoffMs: number;
  /** The lane whose slots its runs take (JobOptions.lane); "default" unless set. */
  lane: string;
  /** Enqueued with its key while it runs: runs once more after that run (JobOptions.rerun). */
  rerun: boolean;
  /** Called once when the job has failed for good (JobOptions.onFailed). */
  onFailed?: (data: z.output<S>, failure: JobFailure) => Promise<void>;
  /** Failed for good, it no longer holds its key (JobOptions.failedFreesKey). */
  failedFreesKey: boolean;
};

export type JobOptions<S extends z.ZodType = z.ZodType> = {
  /** Runs in all, the first included (default 5). */
  attempts?: number;
  /** Wait before the first retry, doubled for each next one (default 1000 ms). */
  backoffMs?: number;
  /**
   * Runs of this job take slots of their own lane, so they neither wait behind other jobs nor keep
   * them waiting: the backend is given each lane's runs at once per process (createJobs); a lane it
   * was not given shares the default lane's.
   */
  lane?: string;
  /**
   * With a key: an enqueue that finds the job running (not waiting) makes it run once more after
   * this run ends, instead of adding nothing, so work that arrived during the run is not missed.
   */
  rerun?: boolean;
  /**
   * Called once the job has failed for good (attempts used up, a run cut off too often, an error no
   * retry fixes), in the process that saw it fail; an error it throws is logged.
   */
  onFailed?: (data: z.output<S>, failure: JobFailure) => Promise<void>;
  /**
   * A job of this name that failed for good no longer holds its key: the next enqueue with the key
   * removes it (from the failed list too) and adds a new job. For notices whose next occasion must
   * not wait until someone retries an old one; the failure was logged when it happened.
   */
  failedFreesKey?: boolean;
};

const NAME = /^[a-z][a-z0-9]*(\.[a-z][a-z0-9-]*)*$/;

export function defineJob<S extends z.ZodType>(
  name: string,
  schema: S,
  handler: (data: z.output<S>, ctx: JobContext) => Promise<void>,
  opts: JobOptions<S> = {},
): JobDefinition<S> {
  if (!NAME.test(name)) throw new Error(`job name ${JSON.stringify(name)}: use lower-case words separated by dots (mail.send)`);
  const attempts = opts.attempts ?? 5;
  const backoffMs = opts.backoffMs ?? 1000;
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`job ${name}: attempts must be a positive integer`);
  if (!(backoffMs >= 0)) throw new Error(`job ${name}: backoffMs must be at least 0`);
  const lane = opts.lane ?? "default";
  if (!/^[a-z][a-z0-9-]*$/.test(lane)) throw new Error(`job ${name}: lane must be a lower-case word`);
  return { name, schema, handler, attempts, backoffMs, lane, rerun: opts.rerun ?? false, onFailed: opts.onFailed, failedFreesKey: opts.failedFreesKey ?? false };
}

/** The wait before run `attempt + 1` after run `attempt` failed (exponential, like BullMQ's). */
export function backoffDelay(job: Pick<JobDefinition, "backoffMs">, attempt: number): number {
  return job.backoffMs * 2 ** Math.max(attempt - 1, 0);
}

export type EnqueueOptions = {
  /** Run no earlier than this many milliseconds from now. */
  delay?: number;
  /**
   * Dedupe key: while a job of this name with this key is waiting, running or failed, enqueueing
   * it again adds nothing and returns the existing job's id. Once it has finished, the key is free
   * (and once it has failed, for a job defined with failedFreesKey).
   */
  key?: string;
};

/** Runs at once per process: `default` for every job whose lane is not listed, and one count per listed lane. */
export type LaneConcurrency = { default?: number } & Record<string, number | undefined>;

/** The slots of each lane, from the backend's options (default lane: 4). */
export function laneSlots(lanes: LaneConcurrency = {}): Map<string, number> {
  const slots = new Map<string, number>([["default", lanes.default ?? 4]]);
  for (const [lane, n] of Object.entries(lanes)) if (n !== undefined) slots.set(lane, n);
  for (const [lane, n] of slots) if (!(Number.isInteger(n) && n >= 1)) throw new Error(`jobs: lane ${lane} needs at least one run at once`);
  return slots;
}

/** The lane a job's runs take: its own when the backend has slots for it, else the default. */
export function laneOf(job: Pick<JobDefinition, "lane">, slots: Map<string, number>): string {
  return slots.has(job.lane) ? job.lane : "default";
}

export type FailedJob = { id: string; name: string; attempts: number; error: string; failedAt: Date };

/** What both backends (in process, BullMQ) offer; the server holds one in its Runtime. */
export interface JobBackend {
  readonly kind: "in-process" | "bullmq";
  /** Stores the job (data already checked against its schema) and returns its id. */
  add(job: JobDefinition, data: unknown, opts?: EnqueueOptions): Promise<string>;
  /** Starts taking jobs (the server; scripts only add). */
  start(): Promise<void>;
  /** Stops taking jobs and waits for the runs in flight (up to graceMs), then lets go of its connections. */
  close(opts?: { graceMs?: number }): Promise<void>;
  /** Jobs that used up their attempts, newest first. */
  failed(): Promise<FailedJob[]>;
  /** Puts a failed job back in the queue with fresh attempts; false if no failed job has that id. */
  retry(id: string): Promise<boolean>;
  /** Resolves once no job is waiting (due), delayed or running: for tests and scripts. */
  idle(): Promise<void>;
}
