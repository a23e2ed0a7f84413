// The jobs module: defineJob (define.ts), the job list (registry.ts), enqueue, and the backend the
// server runs (in process on the database, or BullMQ with REDIS_URL). See docs/jobs.md.
import type { Config } from "../config.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import { BullmqJobs } from "./bullmq.ts";
import type { JobBackend, JobDefinition } from "./define.ts";
import { InProcessJobs } from "./in-process.ts";
import { jobs as registered } from "./registry.ts";

export { enqueue } from "./enqueue.ts";
export { defineJob, type EnqueueOptions, type JobFailure, type FailedJob, type JobBackend, type JobContext, type JobDefinition } from "./define.ts";

/** The backend for this configuration, not yet taking jobs (the server calls start()). */
export async function createJobs(config: Pick<Config, "redisUrl" | "redisPrefix" | "databaseUrl" | "agentMaxConcurrent">, prisma: PrismaClient, jobs: readonly JobDefinition[] = registered): Promise<JobBackend> {
  // Agent turns (agent.turn) take slots of their own: as many at once as the runner runs.
  const lanes = { agent: config.agentMaxConcurrent };
  if (config.redisUrl) return BullmqJobs.open(prisma, config.redisUrl, jobs, { prefix: config.redisPrefix, lanes });
  // The embedded database has one process: what the last one left RUNNING is due again at start.
  return new InProcessJobs(prisma, jobs, { soleWorker: !config.databaseUrl, lanes });
}
