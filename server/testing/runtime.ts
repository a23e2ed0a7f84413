// Test support: a throw-away Runtime (in-memory PGlite, a fresh EventBus, an outbox mailer in a
// temp directory) installed with setRuntime, so services and resolvers can run inside unit tests.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../config.ts";
import { openDatabase, type Database } from "../db/open.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import { OutboxMailer } from "../email/mailer.ts";
import { EventBus } from "../realtime/bus.ts";
import { setRuntime, type Runtime } from "../runtime.ts";

export type TestRuntime = {
  runtime: Runtime;
  prisma: PrismaClient;
  bus: EventBus;
  /** Temp directory holding the outbox; removed by close(). */
  dataDir: string;
  outboxDir: string;
  /** Unsets the runtime, closes the database and removes the temp directory. */
  close(): Promise<void>;
};

/** Opens an in-memory database with all migrations applied and installs it as the process runtime. */
export async function startTestRuntime(env: Record<string, string> = {}): Promise<TestRuntime> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "todo-unit-"));
  let database: Database | undefined;
  try {
    database = await openDatabase({ dataDir: "memory://" });
  } catch (e) {
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  }
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent", APP_URL: "http://app.test", ...env });
  const outboxDir = path.join(dataDir, "outbox");
  const bus = new EventBus();
  const runtime: Runtime = { config, prisma: database.prisma, bus, mailer: new OutboxMailer(outboxDir) };
  setRuntime(runtime);
  const db = database;
  return {
    runtime,
    prisma: db.prisma,
    bus,
    dataDir,
    outboxDir,
    close: async () => {
      setRuntime(undefined);
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A unique, already lower-case email address. */
export function uniqueEmail(tag = "user"): string {
  return `${tag}-${randomUUID().slice(0, 8)}@unit.example.com`;
}

/** Creates a user row with a unique email. */
export async function createTestUser(prisma: PrismaClient, opts: { name?: string | null; isAdmin?: boolean; email?: string } = {}) {
  return prisma.user.create({
    data: { email: opts.email ?? uniqueEmail(), name: opts.name === undefined ? "Test User" : opts.name, isAdmin: opts.isAdmin ?? false },
  });
}
