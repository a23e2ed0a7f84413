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
};

export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  schema: S;
  handler: (data: z.output<S>, ctx: JobContext) => Promise<void>;
  /** Runs in all, the first included (default 5). */
  attempts: number;
  /** Wait before the first retry; doubled for each next one (default 1 s). */
  backoffMs: number;
};

export type JobOptions = {
  /** Runs in all, the first included (default 5). */
  attempts?: number;
  /** Wait before the first retry, doubled for each next one (default 1000 ms). */
  backoffMs?: number;
};

const NAME = /^[a-z][a-z0-9]*(\.[a-z][a-z0-9-]*)*$/;

export function defineJob<S extends z.ZodType>(
  name: string,
  schema: S,
  handler: (data: z.output<S>, ctx: JobContext) => Promise<void>,
  opts: JobOptions = {},
): JobDefinition<S> {
  if (!NAME.test(name)) throw new Error(`job name ${JSON.stringify(name)}: use lower-case words separated by dots (mail.send)`);
  const attempts = opts.attempts ?? 5;
  const backoffMs = opts.backoffMs ?? 1000;
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`job ${name}: attempts must be a positive integer`);
  if (!(backoffMs >= 0)) throw new Error(`job ${name}: backoffMs must be at least 0`);
  return { name, schema, handler, attempts, backoffMs };
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
   * it again adds nothing and returns the existing job's id. Once it has finished, the key is free.
   */
  key?: string;
};

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
