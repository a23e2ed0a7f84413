import path from "node:path";
import type { Config } from "./config.ts";
import { resolveCaller } from "./auth/resolve.ts";
import { openDatabase } from "./db/open.ts";
import { createMailer } from "./email/mailer.ts";
import { createPipeline, type Pipeline } from "./http/pipeline.ts";
import { createRateLimits } from "./http/rate-limit.ts";
import { Router } from "./http/router.ts";
import { createJobs } from "./jobs/index.ts";
import { log } from "./log.ts";
import { operations } from "./operations/index.ts";
import { EventBus } from "./realtime/bus.ts";
import { createAgent } from "./agent/create-runner.ts";
import { setRuntime, type Runtime } from "./runtime.ts";

export type App = { runtime: Runtime; handle: Pipeline; close(): Promise<void> };

/** Everything but the network: database, bus, mailer and the operation pipeline. Used by the server, scripts and benchmarks. */
export async function createApp(config: Config): Promise<App> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    dataDir: path.join(config.dataDir, "pglite"),
    log: (msg) => log.info(msg),
  });
  const runtime: Runtime = {
    config,
    prisma: database.prisma,
    database: database.kind,
    bus: new EventBus(),
    mailer: createMailer({ resendApiKey: config.resendApiKey, from: config.emailFrom, dataDir: config.dataDir }),
    // Turns are jobs: only a process that starts its job backend (the server) takes them.
    agent: createAgent(config),
  };
  const rateLimits = await createRateLimits(config);
  runtime.limits = rateLimits.limits;
  // Created here so scripts can enqueue; only the server starts taking jobs (server/main.ts).
  runtime.jobs = await createJobs(config, database.prisma);
  setRuntime(runtime);
  const handle = createPipeline(new Router(operations), resolveCaller, config.appUrl, { trustProxy: config.trustProxy, limits: rateLimits.limits });
  return {
    runtime,
    handle,
    async close() {
      await runtime.agent.stop();
      await runtime.jobs?.close();
      await rateLimits.close();
      setRuntime(undefined);
      await database.close();
    },
  };
}
