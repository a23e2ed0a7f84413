// Test support: a throw-away Runtime (a fresh database, a fresh EventBus, an outbox mailer in a
// temp directory) installed with setRuntime, so services and resolvers can run inside unit tests.
//
// The database is an in-memory PGlite by default. With `database: "postgres"` it is a fresh
// database on the PostgreSQL server at TEST_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
// dropped again by close(); PGlite is one connection, so only there do transactions really overlap.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before } from "node:test";
import pg from "pg";
import { loadConfig } from "../config.ts";
import { openDatabase, type Database } from "../db/open.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import { OutboxMailer } from "../email/mailer.ts";
import { EventBus } from "../realtime/bus.ts";
import { createRunner } from "../agent/create-runner.ts";
import { InProcessJobs } from "../jobs/in-process.ts";
import { jobs } from "../jobs/registry.ts";
import { setLogLevel } from "../log.ts";
import { runtime as currentRuntime, setRuntime, type Runtime } from "../runtime.ts";

export type TestRuntime = {
  runtime: Runtime;
  prisma: PrismaClient;
  bus: EventBus;
  kind: "pglite" | "postgres";
  /** The embedded database's handle (pglite only), for a raw-SQL baseline (bench/search.ts). */
  pglite?: Database["pglite"];
  /** The PostgreSQL database's URL (postgres only), for a second process on the same database. */
  databaseUrl?: string;
  /** Temp directory holding the outbox; removed by close(). */
  dataDir: string;
  outboxDir: string;
  /** Puts back the runtime that was installed before, closes the database and removes the temp directory. */
  close(): Promise<void>;
};

/** Thrown by startTestRuntime({ database: "postgres" }) when no server answers; tests may skip on it. */
export class PostgresUnavailable extends Error {}

/**
 * Starts what a test needs (`start`), or, when no PostgreSQL server answers outside CI, the reason
 * to skip instead: on a laptop without PostgreSQL its tests skip, in CI (CI=true) they fail.
 */
export async function unlessPostgresUnavailable<T>(start: () => Promise<T>): Promise<{ started: T; skip?: undefined } | { started?: undefined; skip: string }> {
  try {
    return { started: await start() };
  } catch (e) {
    if (e instanceof PostgresUnavailable && process.env.CI !== "true") return { skip: e.message };
    throw e;
  }
}

export const TEST_PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function freshPostgres(template?: string): Promise<{ database: Database; url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  admin.on("error", () => {});
  try {
    await admin.connect();
  } catch (e) {
    throw new PostgresUnavailable(`PostgreSQL unreachable at ${TEST_PG_ADMIN_URL} (set TEST_PG_ADMIN_URL): ${String(e)}`);
  }
  const name = `unit_${process.pid}_${randomUUID().slice(0, 8)}`;
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  };
  try {
    // A copy of a template (bench/search.ts's seeded database) is a file copy: seconds, where
    // seeding it again takes minutes. Migrations newer than the template are applied to the copy.
    await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}" STRATEGY FILE_COPY` : `CREATE DATABASE "${name}"`);
    const url = new URL(TEST_PG_ADMIN_URL);
    url.pathname = `/${name}`;
    return { database: await openDatabase({ databaseUrl: url.toString() }), url: url.toString(), drop };
  } catch (e) {
    await drop().catch(() => {});
    throw e;
  }
}

export type TestRuntimeOptions = {
  database?: "pglite" | "postgres";
  env?: Record<string, string>;
  /** postgres only: the new database is a copy of this one. */
  postgresTemplate?: string;
};

/** Opens a fresh database with all migrations applied and installs it as the process runtime. */
export async function startTestRuntime(opts: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const kind = opts.database ?? "pglite";
  let previous: Runtime | undefined;
  try {
    previous = currentRuntime();
  } catch {
    previous = undefined;
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), "todo-unit-"));
  let database: Database;
  let drop = async () => {};
  let databaseUrl: string | undefined;
  try {
    if (kind === "postgres") ({ database, drop, url: databaseUrl } = await freshPostgres(opts.postgresTemplate));
    else database = await openDatabase({ dataDir: "memory://" });
  } catch (e) {
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  }
  // No reply mails unless a test asks: their delayed jobs would keep `jobs.idle()` waiting.
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent", APP_URL: "http://app.test", REPLY_MAIL_DELAY_MS: "off", ...opts.env });
  const outboxDir = path.join(dataDir, "outbox");
  const bus = new EventBus();
  const runtime: Runtime = { config, prisma: database.prisma, database: kind, bus, mailer: new OutboxMailer(outboxDir), agent: createRunner({ ...config, agentStepMs: 0 }) };
  // Jobs queued by services wait in the test database until a test starts the backend (runtime.jobs.start()).
  runtime.jobs = new InProcessJobs(database.prisma, jobs, { pollMs: 20 });
  setRuntime(runtime);
  return {
    runtime,
    prisma: database.prisma,
    bus,
    kind,
    pglite: database.pglite,
    databaseUrl,
    dataDir,
    outboxDir,
    close: async () => {
      await runtime.agent.stop();
      await runtime.jobs?.close();
      // A Stripe stand-in started on first use (server/services/billing/stripe.ts) listens until closed.
      await runtime.stripe?.close().catch(() => undefined);
      setRuntime(previous);
      try {
        await database.close();
        await drop();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
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

/** A RUNNING todo whose user message waits (PENDING) for the agent's turn: what the runner picks up. */
export async function createWaitingTodo(prisma: PrismaClient, owner: { projectId: string; userId: string }, content: string) {
  const todo = await prisma.todo.create({ data: { ...owner, content, status: "RUNNING" } });
  await prisma.message.create({ data: { todoId: todo.id, role: "user", content, state: "PENDING" } });
  return todo;
}

/** What a test file does around the start and the close of its suiteTestRuntime or suiteTestApp. */
export type TestHooks<T> = {
  /** Runs in the same `before` hook, once `T` is started (seed rows, start jobs, attach servers). */
  setup?: (started: T) => unknown;
  /** Runs in the same `after` hook, before `T` is closed (which happens even when it throws). */
  teardown?: (started: T) => unknown;
};

/**
 * A fixture of the enclosing suite (the test file, or the describe block it is called in): registers
 * node:test hooks, `before` silencing the log, starting `T` and running `hooks.setup`, `after`
 * running `hooks.teardown` and closing `T`. Returns a stand-in for `T` to keep at the top of the
 * file: every property read goes to the started value, so it serves in tests and hooks, and
 * throws before the start.
 *
 * Do what needs `T` in `setup`, not in a `before` of the file's own: at a file's top level, Node 20
 * starts the next `before` hook without waiting for the one before it to end. (Not named use…:
 * the React lint takes that for a hook of React's.)
 */
export function suiteFixture<T extends { close(): Promise<void> }>(what: string, start: () => Promise<T>, hooks: TestHooks<T> = {}): T {
  let current: T | undefined;
  before(async () => {
    setLogLevel("silent");
    current = await start();
    await hooks.setup?.(current);
  });
  after(async () => {
    if (!current) return;
    try {
      await hooks.teardown?.(current);
    } finally {
      await current.close();
    }
  });
  const started = () => {
    if (!current) throw new Error(`${what} not started: use it inside a test or a hook`);
    return current;
  };
  return new Proxy({} as T, { get: (_target, key) => Reflect.get(started(), key) });
}

/**
 * A fresh test runtime for the enclosing suite, started and closed by node:test hooks (suiteFixture):
 *
 *   const t = suiteTestRuntime({ env: { BILLING_ENABLED: "1" }, setup: () => t.runtime.jobs!.start() });
 *   test("…", async () => { await t.prisma.user.count(); });
 */
export function suiteTestRuntime(opts: TestRuntimeOptions & TestHooks<TestRuntime> = {}): TestRuntime {
  const { setup, teardown, ...start } = opts;
  return suiteFixture("test runtime", () => startTestRuntime(start), { setup, teardown });
}

/**
 * For the tests that need overlapping transactions (PGlite is one connection): registers hooks
 * that open a fresh PostgreSQL database for the suite. Unreachable PostgreSQL skips those tests
 * with the reason, except in CI (CI=true), where it fails them.
 */
export function withPostgresRuntime(before: (fn: () => Promise<void>) => void, after: (fn: () => Promise<void>) => void) {
  let rt: TestRuntime | undefined;
  let unavailable = "";
  before(async () => {
    try {
      rt = await startTestRuntime({ database: "postgres" });
    } catch (e) {
      if (!(e instanceof PostgresUnavailable) || process.env.CI === "true") throw e;
      unavailable = e.message;
    }
  });
  after(async () => {
    await rt?.close();
  });
  return { get: () => rt, reason: () => unavailable };
}
