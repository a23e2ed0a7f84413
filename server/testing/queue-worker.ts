// Test support: one agent-queue worker in a process of its own, as a server process runs it, so
// a test can kill it with SIGKILL mid-turn (server/agent/queue-crash.test.ts). It prints "ready"
// once its worker listens. Environment: DATABASE_URL, REDIS_URL, AGENT_STEP_MS (the server's own
// variables), QUEUE_PREFIX, QUEUE_LOCK_MS, and START_TODO to queue that todo's turn itself.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRunner } from "../agent/create-runner.ts";
import { QueuedRunner } from "../agent/queue.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/open.ts";
import { OutboxMailer } from "../email/mailer.ts";
import { EventBus } from "../realtime/bus.ts";
import { setRuntime } from "../runtime.ts";

const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
if (!config.databaseUrl || !config.redisUrl) throw new Error("queue-worker needs DATABASE_URL and REDIS_URL");
const lockMs = Number(process.env.QUEUE_LOCK_MS ?? 30_000);
const database = await openDatabase({ databaseUrl: config.databaseUrl });
const agent = new QueuedRunner(createRunner(config, { leaseMs: lockMs / 2 }), config.redisUrl, 2, {
  prefix: process.env.QUEUE_PREFIX,
  lockMs,
  stalledCheckMs: lockMs / 2,
});
const dataDir = await mkdtemp(path.join(tmpdir(), "queue-worker-"));
setRuntime({ config, prisma: database.prisma, bus: new EventBus(), mailer: new OutboxMailer(path.join(dataDir, "outbox")), agent });
await agent.init();
if (process.env.START_TODO) agent.start(process.env.START_TODO);
process.stdout.write("ready\n");
