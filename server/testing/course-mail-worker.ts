// Test support: a process that runs the job backend as a server process does (in process, on the
// PostgreSQL database of DATABASE_URL, taking back what a dead predecessor left RUNNING), writing
// mail to OUTBOX_DIR, so server/services/courses/mail-run-crash.test.ts can SIGKILL it mid-run.
// Prints "ready" once it takes jobs.
import { createRunner } from "../agent/create-runner.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/open.ts";
import { OutboxMailer } from "../email/mailer.ts";
import { InProcessJobs } from "../jobs/in-process.ts";
import { jobs } from "../jobs/registry.ts";
import { EventBus } from "../realtime/bus.ts";
import { setRuntime } from "../runtime.ts";

const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
if (!config.databaseUrl || !process.env.OUTBOX_DIR) throw new Error("course-mail-worker needs DATABASE_URL and OUTBOX_DIR");
const database = await openDatabase({ databaseUrl: config.databaseUrl });
const backend = new InProcessJobs(database.prisma, jobs, { soleWorker: true, pollMs: 20 });
setRuntime({ config, prisma: database.prisma, bus: new EventBus(), mailer: new OutboxMailer(process.env.OUTBOX_DIR), agent: createRunner({ ...config, agentStepMs: 0 }), jobs: backend });
await backend.start();
process.stdout.write("ready\n");
