import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";

// Drops the run's PostgreSQL database (the servers are stopped by then), then holds the statuses
// the servers answered against those the OpenAPI document declares (fails the run listing any
// undeclared one; see server/http/status-record.ts).
export default async function globalTeardown() {
  try {
    await dropDatabase();
  } finally {
    checkDeclaredStatuses();
  }
}

async function dropDatabase() {
  const name = process.env.E2E_PG_DB;
  if (!name || process.env.SKIP_POSTGRES === "1" || !/^todo_e2e_[0-9_]+$/.test(name)) return;
  const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

function checkDeclaredStatuses() {
  if (!process.env.E2E_RUN_ID) return;
  // The same run directory as playwright.config.ts; the servers' DATA_DIRs are below it.
  const runDir = path.resolve("data", "e2e", process.env.E2E_RUN_ID);
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/check-observed-statuses.ts", runDir], { encoding: "utf8" });
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.status !== 0) throw new Error(r.stderr || r.error?.message || `check-observed-statuses exited with ${r.status}`);
}
