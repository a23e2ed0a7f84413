// Starts the real server (or, with `cluster`, several behind a balancer) for the Playwright run.
// With DATABASE_URL it first creates that PostgreSQL database (several test servers may race to
// do so); e2e/global-teardown drops it.
import pg from "pg";

async function ensureDatabase(url: string, adminUrl: string) {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected test database name ${name}`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (err) {
    // 42P04: already exists; 23505: another test server created it at the same moment.
    if (!["42P04", "23505"].includes((err as { code?: string }).code ?? "")) throw err;
  } finally {
    await admin.end();
  }
}

if (process.env.DATABASE_URL && process.env.TEST_PG_ADMIN_URL) {
  await ensureDatabase(process.env.DATABASE_URL, process.env.TEST_PG_ADMIN_URL);
}
// `test-server.ts cluster --workers 2 …`: the same database set-up, then `npm run cluster`.
if (process.argv[2] === "cluster") {
  process.argv.splice(2, 1);
  await import("./cluster.ts");
} else {
  await import("../server/main.ts");
}
