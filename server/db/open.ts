// Opens the application's database: embedded PGlite by default, a PostgreSQL server when a
// postgresql:// URL is given. Pending migrations are applied before the client is handed out.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { restrictTree } from "../data-dir.ts";
import { PrismaClient } from "./generated/client.ts";
import { withStatementCache } from "./pglite-statements.ts";
import { applyMigrations, describeError, migratePostgres, pgliteExecutor, redactUrl } from "./migrate.ts";
import { countStatements, reportStatements, statementsFile, type StatementCounts } from "./statement-count.ts";

/** BENCH_STATEMENTS_FILE set: the client's adapter counts its statements into the file (bench-only, ./statement-count.ts). */
function counted<F>(factory: F): F {
  const file = statementsFile();
  if (!file) return factory;
  const counts: StatementCounts = { statements: 0, transactions: 0 };
  reportStatements(counts, file);
  return countStatements(factory, counts);
}

export interface OpenDatabaseOptions {
  /** postgresql://… of a PostgreSQL server; without it the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PostgreSQL: connections at most (default pg's, 10). */
  poolSize?: number;
  /** PGlite data directory (default ./data/pglite); "memory://" for a throw-away in-memory one. */
  dataDir?: string;
  log?: (msg: string) => void;
}

export interface Database {
  prisma: PrismaClient;
  kind: "pglite" | "postgres";
  /** The embedded database's own handle (pglite only), for benchmarks' raw-SQL baselines. */
  pglite?: PGlite;
  close(): Promise<void>;
}

export const DEFAULT_DATA_DIR = "data/pglite";
const MEMORY = "memory://";

// PGlite is a single connection to files nobody else may touch: a second instance on the same
// directory would corrupt it, so each directory is opened once per process.
const openDirs = new Set<string>();

export async function openDatabase(opts: OpenDatabaseOptions = {}): Promise<Database> {
  const log = opts.log ?? (() => {});
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, log, opts.poolSize) : openPglite(opts.dataDir ?? DEFAULT_DATA_DIR, log);
}

async function openPostgres(url: string, log: (msg: string) => void, poolSize?: number): Promise<Database> {
  const where = redactUrl(url);
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error(`DATABASE_URL must be a postgresql:// URL (got ${where}). Unset it to use the embedded database.`);
  }
  try {
    // Also proves the server is reachable, before Prisma's lazy connection could fail mid-request.
    const applied = await migratePostgres(url, { log });
    log(`database: PostgreSQL ${where}${applied.length ? `, applied ${applied.join(", ")}` : ""}`);
  } catch (e) {
    throw new Error(`Could not open the PostgreSQL database ${where}: ${describeError(e)}`, { cause: e });
  }
  const prisma = new PrismaClient({ adapter: counted(new PrismaPg({ connectionString: url, ...(poolSize ? { max: poolSize } : {}) })) });
  return { prisma, kind: "postgres", close: () => prisma.$disconnect() };
}

async function openPglite(dataDir: string, log: (msg: string) => void): Promise<Database> {
  const memory = dataDir === MEMORY;
  const dir = memory ? MEMORY : path.resolve(dataDir);
  if (!memory && openDirs.has(dir)) {
    throw new Error(`The embedded database ${dir} is already open in this process; share that client instead.`);
  }
  let db: PGlite;
  try {
    // PGlite does not create parent directories; without them it fails with "External error id#0".
    if (!memory) await mkdir(dir, { recursive: true, mode: 0o700 });
    db = memory ? await PGlite.create() : await PGlite.create(dir);
  } catch (e) {
    throw new Error(`Could not open the embedded database ${dir}: ${describeError(e)}`, { cause: e });
  }
  if (!memory) openDirs.add(dir);
  const release = async (): Promise<void> => {
    openDirs.delete(dir);
    await db.close();
  };
  try {
    const applied = await applyMigrations(pgliteExecutor(db), { log });
    log(`database: embedded PGlite ${dir}${applied.length ? `, applied ${applied.join(", ")}` : ""}`);
    // PGlite writes its initial files (and the catalog caches, rewritten after migrations) with
    // explicit modes, 0666 and 0644: bring them to 0600 once it has settled.
    if (!memory) restrictTree(dir);
  } catch (e) {
    await release().catch(() => {});
    throw new Error(`Could not migrate the embedded database ${dir}: ${describeError(e)}`, { cause: e });
  }
  const prisma = new PrismaClient({ adapter: counted(new PrismaPGlite(withStatementCache(db))) });
  return {
    prisma,
    kind: "pglite",
    pglite: db,
    close: async () => {
      await prisma.$disconnect();
      await release();
    },
  };
}
