// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (PostgreSQL) or, without it, to
// the embedded PGlite database in ./data/pglite (PGLITE_DATA_DIR overrides the directory).
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { secureDataDir } from "../server/data-dir.ts";
import { applyMigrations, describeError, migratePostgres, pgliteExecutor, redactUrl } from "../server/db/migrate.ts";

const log = (msg: string): void => console.log(msg);

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  let applied: string[];
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`DATABASE_URL must be a postgresql:// URL, got ${redactUrl(url)}`);
    log(`migrating ${redactUrl(url)}`);
    applied = await migratePostgres(url, { log });
  } else {
    const dataDir = path.resolve(process.env.PGLITE_DATA_DIR ?? "data/pglite");
    // PGlite does not create parent directories; without them it fails with an opaque error.
    secureDataDir(dataDir);
    log(`migrating embedded database ${dataDir}`);
    const db = await PGlite.create(dataDir);
    try {
      applied = await applyMigrations(pgliteExecutor(db), { log });
    } finally {
      await db.close();
    }
  }
  log(applied.length ? `${applied.length} migration(s) applied` : "database is up to date");
}

main().catch((e: unknown) => {
  console.error(`db:migrate failed: ${describeError(e)}`);
  process.exit(1);
});
