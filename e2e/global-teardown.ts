import pg from "pg";

// Drops the run's PostgreSQL database (the servers are stopped by then).
export default async function globalTeardown() {
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
