// The jobs module: defineJob (define.ts), the job list (registry.ts), enqueue, and the backend the
// server runs (in process on the database, or BullMQ with REDIS_URL). See docs/jobs.md.
import type { z } from "zod";
import type { Config } from "../config.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import { runtime } from "../runtime.ts";
import { BullmqJobs } from "./bullmq.ts";
import type { EnqueueOptions, JobBackend, JobDefinition } from "./define.ts";
import { InProcessJobs } from "./in-process.ts";
import { jobs as registered } from "./registry.ts";

export { defineJob, type EnqueueOptions, type FailedJob, type JobBackend, type JobContext, type JobDefinition } from "./define.ts";

/** The backend for this configuration, not yet taking jobs (the server calls start()). */
export async function createJobs(config: Pick<Config, "redisUrl" | "redisPrefix" | "databaseUrl">, prisma: PrismaClient, jobs: readonly JobDefinition[] = registered): Promise<JobBackend> {
  if (config.redisUrl) return BullmqJobs.open(prisma, config.redisUrl, jobs, { prefix: config.redisPrefix });
  // The embedded database has one process: what the last one left RUNNING is due again at start.
  return new InProcessJobs(prisma, jobs, { soleWorker: !config.databaseUrl });
}

/**
 * Queues `job` with `data` (checked against the job's schema here, so a bad payload fails the
 * caller, not the worker) on the process's backend; returns the job's id.
 */
export async function enqueue<S extends z.ZodType>(
  job: JobDefinition<S>,
  data: z.input<S>,
  opts: EnqueueOptions = {},
  backend: JobBackend | undefined = runtime().jobs,
): Promise<string> {
  if (!backend) throw new Error("No job backend in this runtime (the server creates one in server/app.ts)");
  if (opts.delay !== undefined && !(Number.isFinite(opts.delay) && opts.delay >= 0)) throw new Error(`enqueue ${job.name}: delay must be a number of milliseconds, at least 0`);
  if (opts.key !== undefined && !(opts.key.length > 0 && opts.key.length <= 500)) throw new Error(`enqueue ${job.name}: key must be 1 to 500 characters`);
  job.schema.parse(data);
  return backend.add(job as unknown as JobDefinition, data, opts);
}
