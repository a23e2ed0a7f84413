// Test support: a server process's agent as the crash tests need it, in a process of its own so a
// test can kill it with SIGKILL mid-turn (server/agent/queue-crash.test.ts): the BullMQ job backend
// with the `agent.turn` job, running turns on this process's runner. It prints "ready" once its
// workers listen. Environment: DATABASE_URL, REDIS_URL, AGENT_STEP_MS (the server's own variables),
// QUEUE_PREFIX, QUEUE_LOCK_MS, and START_TODO to queue that todo's turn itself.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRunner } from "../agent/create-runner.ts";
import { agentTurnJob, JobAgent } from "../agent/turn-job.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/open.ts";
import { OutboxMailer } from "../email/mailer.ts";
import { BullmqJobs } from "../jobs/bullmq.ts";
import { EventBus } from "../realtime/bus.ts";
import { setRuntime } from "../runtime.ts";

const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
if (!config.databaseUrl || !config.redisUrl) throw new Error("turn-worker needs DATABASE_URL and REDIS_URL");
const lockMs = Number(process.env.QUEUE_LOCK_MS ?? 30_000);
const database = await openDatabase({ databaseUrl: config.databaseUrl });
const agent = new JobAgent(createRunner({ ...config, agentMaxConcurrent: 2 }, { leaseMs: lockMs / 2 }));
const jobs = await BullmqJobs.open(database.prisma, config.redisUrl, [agentTurnJob], { prefix: process.env.QUEUE_PREFIX ?? "todo-service", lanes: { agent: 2 }, lockMs, stalledCheckMs: lockMs / 2 });
const dataDir = await mkdtemp(path.join(tmpdir(), "turn-worker-"));
setRuntime({ config, prisma: database.prisma, bus: new EventBus(), mailer: new OutboxMailer(path.join(dataDir, "outbox")), agent, jobs });
await jobs.start();
if (process.env.START_TODO) agent.start(process.env.START_TODO);
process.stdout.write("ready\n");
