// enqueue(): hands a job to the process's backend. Its own file, importing no job, so services and
// jobs import it from here without an import circle through the registry (which imports every job);
// server/jobs/index.ts re-exports it for the server's start-up and scripts.
import type { z } from "zod";
import { runtime } from "../runtime.ts";
import type { EnqueueOptions, JobBackend, JobDefinition } from "./define.ts";

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
