import { defineConfig } from "@playwright/test";
import path from "node:path";
import { serverNodeArgs } from "./scripts/server-node.mjs";

// One run starts three real servers (production build), on ports counted from E2E_PORT_BASE
// (default 3100, so two checkouts can run their suites side by side):
//   base     embedded default (PGlite, no Redis)            → projects api-embedded and ui
//   base+1   `npm run cluster`: a load balancer in front of two server processes on one
//            PostgreSQL + Redis (base+2, base+3; a shared Stripe stand-in on base+4)
//                                                            → project api-postgres, whose
//            requests and sockets land on either process; the cross-process tests also talk to
//            the second process (base+3) directly
//   base+20  an OpenAI-compatible stand-in (scripts/openai-standin-server.ts) for todos set to "openai"
// Names set here are inherited by the workers, so every process agrees on them.
process.env.E2E_RUN_ID ??= `${Date.now()}-${process.pid}`;
process.env.E2E_PG_DB ??= `todo_e2e_${process.env.E2E_RUN_ID.replace(/\D/g, "_")}`;
const runDir = path.resolve("data", "e2e", process.env.E2E_RUN_ID);
const pgAdmin = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const pgUrl = new URL(pgAdmin);
pgUrl.pathname = `/${process.env.E2E_PG_DB}`;
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const skipPostgres = process.env.SKIP_POSTGRES === "1";
const base = Number(process.env.E2E_PORT_BASE ?? 3100);
const port = { embedded: base, postgres: base + 1, peer: base + 3, standin: base + 20 };

export const E2E = {
  embedded: { url: `http://localhost:${port.embedded}`, dataDir: path.join(runDir, "embedded") },
  postgres: { url: `http://localhost:${port.postgres}`, peerUrl: `http://localhost:${port.peer}`, dataDir: path.join(runDir, "postgres") },
};

const common = {
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  AUTH_SECRET: "e2e-secret-not-for-production-0123456789",
  // Short agent steps keep turns quick (a reply of about 20 steps takes 2 s), yet long enough for
  // a browser on a loaded 2-core machine to see the reply being written and pause or stop it.
  AGENT_STEP_MS: "100",
  // Todos may pick the OpenAI-compatible provider; it points at the stand-in below.
  OPENAI_BASE_URL: `http://127.0.0.1:${port.standin}/v1`,
  // An endpoint that goes silent ends the turn after this long (the stand-in's "[silent]").
  AGENT_IDLE_TIMEOUT_MS: "1500",
  // A failing endpoint fails the turn at once (the AI SDK would retry twice with backoff).
  AGENT_MAX_RETRIES: "0",
  // The models agent settings may name (each priced); AGENT_MAX_TOKENS stays at its default, 4096.
  AGENT_MODELS: "gpt-4o-mini,gpt-4.1-mini,gpt-4.1-nano,o4-mini",
  LOG_LEVEL: "warn",
  // Every test signs its users in from this one machine: lift the per-IP sign-in limit only
  // (the per-address one stays, e2e/api/rate-limits.spec.ts tests it).
  RATE_LIMITS: "signInIp=1000000/900",
};

function server(port: number, env: Record<string, string>) {
  return {
    command: `node ${serverNodeArgs("scripts/test-server.ts").join(" ")}`,
    url: `http://localhost:${port}/api/v1/openapi.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    // Each server records the (operation, status) pairs it answers; e2e/global-teardown.ts checks them against the OpenAPI document.
    env: { ...common, PORT: String(port), APP_URL: `http://localhost:${port}`, E2E_RECORD_STATUSES: path.join(env.DATA_DIR!, `statuses-${port}.jsonl`), ...env },
  };
}

/** The PostgreSQL side: `npm run cluster` with two processes behind its balancer on `port`. */
function cluster(port: number, env: Record<string, string>) {
  return {
    command: `node --import tsx scripts/test-server.ts cluster --workers 2 --port ${port} --host 127.0.0.1 --no-build`,
    url: `http://localhost:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: { ...common, APP_URL: `http://localhost:${port}`, E2E_RECORD_STATUSES: path.join(env.DATA_DIR!, `statuses-${port}.jsonl`), ...env },
  };
}

const pgEnv = { DATABASE_URL: pgUrl.toString(), REDIS_URL: redisUrl, REDIS_PREFIX: `todo-e2e-${process.env.E2E_RUN_ID.replace(/\D/g, "-")}`, DATA_DIR: E2E.postgres.dataDir, TEST_PG_ADMIN_URL: pgAdmin };

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // A test's whole budget (Playwright's default is 30 s): browser tests that sign in two users and
  // walk several pages take about 30 s on two loaded cores. Waits inside a test keep their own bounds.
  timeout: 60_000,
  // CI machines are two slow shared cores: a browser test that fails is run once more and, if it
  // then passes, reported as "flaky" in the list (a bug to fix, never a pass to forget). A test
  // that fails twice fails the run. Local runs never retry.
  retries: process.env.CI ? 1 : 0,
  // An assertion's wait (Playwright's default is 5 s): a first hydration or a page's first data on
  // two cores at a load average of 10 took longer, failing tests that had nothing wrong. 10 s on CI.
  expect: { timeout: process.env.CI ? 10_000 : 5_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [
    { name: "api-embedded", testDir: "e2e/api", use: { baseURL: E2E.embedded.url }, metadata: { dataDir: E2E.embedded.dataDir } },
    ...(skipPostgres
      ? []
      : [{ name: "api-postgres", testDir: "e2e/api", use: { baseURL: E2E.postgres.url }, metadata: { dataDir: E2E.postgres.dataDir, peerUrl: E2E.postgres.peerUrl, databaseUrl: pgUrl.toString(), redisUrl } }]),
    { name: "ui", testDir: "e2e/ui", use: { baseURL: E2E.embedded.url, browserName: "chromium" as const }, metadata: { dataDir: E2E.embedded.dataDir } },
  ],
  webServer: [
    {
      command: "node --import tsx scripts/openai-standin-server.ts",
      port: port.standin,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: String(port.standin) },
    },
    server(port.embedded, { DATA_DIR: E2E.embedded.dataDir }),
    ...(skipPostgres ? [] : [cluster(port.postgres, pgEnv)]),
  ],
});
