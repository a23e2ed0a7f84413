import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { cpuMs, freePort, run, start, waitForHttp, type Child } from "./processes.ts";
import { serverNodeArgs } from "../../scripts/server-node.mjs";

export type Cleanups = (() => Promise<void> | void)[];

/** The app server needs a production build; make one only when .next/BUILD_ID is missing. */
export async function ensureBuild(root: string): Promise<void> {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (existsSync(buildId)) return console.log(`using the production build ${readFileSync(buildId, "utf8").trim()} (.next)`);
  console.log("No production build (.next/BUILD_ID missing): running `npx next build` first…");
  await run("next build", "npx", ["next", "build"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    echoStderr: true,
  });
}

/** A fresh PostgreSQL database named `<prefix>_<time>_<pid>`, dropped by one of `cleanups`; returns its URL. */
export async function createPgDatabase(adminUrl: string, prefix: string, cleanups: Cleanups): Promise<string> {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The app server of a bench run and the API key of its one user. */
export type BenchApp = { base: string; apiKey: string; child: Child };

/**
 * Starts the production app server (server/main.ts) on a free port with its data in `dataDir`
 * (PGlite, or `databaseUrl`), waits until it answers, then creates the bench user through the real
 * `user:create` command (it reaches the running server via DATA_DIR/server.json).
 */
export async function startBenchApp(o: {
  root: string;
  dataDir: string;
  databaseUrl: string | undefined;
  email: string;
  /** Extra environment of this bench (agent provider, limits). */
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** Node's options for the server (default the product's own, scripts/server-node.mjs); bench/node-options.ts compares. */
  serverNodeOptions?: readonly string[];
  echoRepeats?: number;
  /** Called with each line the server writes to stdout. */
  onLine?: (line: string) => void;
  /** The port (default: a free one), e.g. to restart a server where its clients reconnect. */
  port?: number;
  /** false: the user exists already (a restart); apiKey is then "". */
  createUser?: boolean;
}): Promise<BenchApp> {
  const port = o.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOSTNAME: "127.0.0.1", // the shell's HOSTNAME (the machine's name) must not leak in
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: o.dataDir,
    LOG_LEVEL: "warn",
    AUTH_SECRET: "bench-secret-not-for-production-0123456789",
    DATABASE_URL: o.databaseUrl ?? "",
    REDIS_URL: "",
    // The limiter still runs on every request (its cost is measured) but never refuses one: a
    // bench sends thousands a minute with one key, far past the `default` policy's 600.
    RATE_LIMIT_SCALE: "1000000",
    ...o.env,
  };
  const child = start("app", process.execPath, [...(o.nodeArgs ?? []), ...serverNodeArgs("server/main.ts", o.serverNodeOptions)], {
    cwd: o.root,
    env,
    echoStderr: true,
    ...(o.echoRepeats !== undefined ? { echoRepeats: o.echoRepeats } : {}),
    ...(o.onLine ? { onLine: o.onLine } : {}),
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/api/v1/openapi.json`, child, 180_000);
  if (o.createUser === false) return { base, apiKey: "", child };

  const out = await run("user:create", "npm", ["run", "user:create", "--", "--email", o.email, "--name", "Bench"], { cwd: o.root, env });
  const line = out.split("\n").reverse().find((l) => l.trim().startsWith("{"));
  const created = line ? (JSON.parse(line) as { apiKey?: string }) : {};
  if (!created.apiKey) throw new Error(`user:create printed no API key:\n${out}`);
  return { base, apiKey: created.apiKey, child };
}

/** A JSON request to the app's /api/v1 with its API key that must answer 200; its parsed body. */
export async function apiJson<T>(app: { base: string; apiKey: string }, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${app.base}/api/v1${route}`, {
    method,
    headers: { "x-api-key": app.apiKey, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} /api/v1${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/**
 * The CPU time of the PostgreSQL backends serving `databaseUrl` (same machine, from /proc), by
 * backend pid: `sample()` now, `since(before, after)` the ms they used in between (a backend that
 * started in between counts from zero). The admin connection it reads them through is closed by
 * one of `cleanups` (pushed after the database's DROP, so it runs before it).
 */
export async function openDbCpu(adminUrl: string, databaseUrl: string, cleanups: Cleanups) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  cleanups.push(() => client.end());
  const name = new URL(databaseUrl).pathname.slice(1);
  return {
    async sample(): Promise<Map<number, number>> {
      const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [name]);
      const out = new Map<number, number>();
      for (const { pid } of rows) {
        const ms = cpuMs(pid);
        if (ms !== undefined) out.set(pid, ms);
      }
      return out;
    },
    since(before: Map<number, number>, after: Map<number, number>): number {
      return [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
    },
  };
}
