// Applies prisma/migrations/<name>/migration.sql in order and records them in `_prisma_migrations`
// with the same table and row shape as Prisma's own tooling, so `prisma migrate status/deploy`
// (where they can run) see the same history. The Prisma CLI cannot migrate offline, hence this.
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/** One database connection. Both PGlite and a dedicated `pg.Client` fit this. */
export interface SqlExecutor {
  /** One statement with $1-style parameters; rows come back as objects. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several statements, no parameters (simple query protocol). */
  exec(script: string): Promise<void>;
}

export interface Migration {
  name: string;
  sql: string;
  /** sha256 hex of the file's bytes, as Prisma computes it. */
  checksum: string;
}

export interface MigrateOptions {
  migrationsDir?: string;
  log?: (msg: string) => void;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

// Prisma's own lock id: our runner and Prisma's CLI also exclude each other.
const LOCK_ID = 72707369;

// Same DDL as Prisma's schema engine uses for PostgreSQL.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export function checksumOf(sql: string): string {
  return createHash("sha256").update(sql, "utf8").digest("hex");
}

// Old Prisma versions wrote the hex without zero-padding each byte; Prisma still accepts those.
function matchesChecksum(sql: string, recorded: string): boolean {
  const digest = createHash("sha256").update(sql, "utf8").digest();
  const legacy = [...digest].map((b) => b.toString(16)).join("");
  return recorded === digest.toString("hex") || recorded === legacy;
}

/** The migrations in apply order (Prisma sorts directory names; they start with a timestamp). */
export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return [];
    throw e;
  });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name, "migration.sql");
      const sql = await readFile(file, "utf8").catch(() => {
        throw new MigrationError(`Migration folder ${name} has no readable migration.sql (${file})`);
      });
      return { name, sql, checksum: checksumOf(sql) };
    }),
  );
}

export function pgliteExecutor(db: {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}): SqlExecutor {
  return {
    query: async (sql, params) => (await db.query(sql, params)).rows as never,
    exec: async (script) => void (await db.exec(script)),
  };
}

export function pgExecutor(client: pg.ClientBase): SqlExecutor {
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    // No values: pg uses the simple query protocol, which accepts several statements.
    exec: async (script) => void (await client.query(script)),
  };
}

// Prisma writes BEGIN/COMMIT itself in some migrations (enum rewrites). Wrapping those in our
// own transaction would let their COMMIT end ours half-way, so they run as Prisma runs them.
function managesOwnTransaction(sql: string): boolean {
  return /^\s*(BEGIN|COMMIT|START\s+TRANSACTION)\s*;/im.test(sql);
}

interface Row {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies pending migrations on one connection. Holds a PostgreSQL advisory lock meanwhile, so
 * several processes starting at once apply each migration exactly once. Returns the names applied.
 */
export async function applyMigrations(db: SqlExecutor, opts: MigrateOptions = {}): Promise<string[]> {
  const log = opts.log ?? (() => {});
  const migrations = await readMigrations(opts.migrationsDir);
  const [{ locked }] = await db.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [LOCK_ID]);
  if (!locked) {
    log("waiting for another process to finish migrating…");
    await db.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
  }
  try {
    await db.exec(CREATE_TABLE);
    // Read the history only once locked: whoever held the lock before may have applied some.
    const rows = await db.query<Row>(
      `SELECT id, migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"
       WHERE rolled_back_at IS NULL ORDER BY started_at`,
    );
    const applied = new Map<string, Row>();
    for (const row of rows) {
      if (row.finished_at === null) {
        throw new MigrationError(
          `Migration ${row.migration_name} failed earlier and is recorded as unfinished in _prisma_migrations. ` +
            `Repair the database by hand, then delete that row (or set its rolled_back_at) and retry.`,
        );
      }
      applied.set(row.migration_name, row);
    }
    const known = new Set(migrations.map((m) => m.name));
    for (const name of applied.keys()) {
      if (!known.has(name)) log(`warning: migration ${name} is applied in the database but missing from ${opts.migrationsDir ?? MIGRATIONS_DIR}`);
    }
    const done: string[] = [];
    for (const m of migrations) {
      const row = applied.get(m.name);
      if (row) {
        if (!matchesChecksum(m.sql, row.checksum)) {
          throw new MigrationError(
            `Migration ${m.name} was modified after it was applied (checksum in database ${row.checksum}, ` +
              `file ${m.checksum}). Never edit an applied migration: revert the file and add a new migration.`,
          );
        }
        continue;
      }
      await applyOne(db, m);
      log(`applied migration ${m.name}`);
      done.push(m.name);
    }
    return done;
  } finally {
    await db.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]).catch(() => {});
  }
}

async function applyOne(db: SqlExecutor, m: Migration): Promise<void> {
  const own = managesOwnTransaction(m.sql);
  const id = randomUUID();
  if (!own) await db.exec("BEGIN");
  try {
    await db.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)`, [id, m.checksum, m.name]);
    await db.exec(m.sql);
    await db.query(
      `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = applied_steps_count + 1 WHERE id = $1`,
      [id],
    );
    if (!own) await db.exec("COMMIT");
  } catch (e) {
    const detail = describeError(e);
    if (own) {
      // Like Prisma: keep the unfinished row with its logs so nobody re-runs a half-applied script.
      await db.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, detail]).catch(() => {});
    } else {
      await db.exec("ROLLBACK").catch(() => {});
    }
    throw new MigrationError(`Migration ${m.name} failed${own ? "" : " and was rolled back"}: ${detail}`, { cause: e });
  }
}

export function describeError(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const x = e as Error & { detail?: string; hint?: string; code?: string };
  return [x.message, x.code && `(code ${x.code})`, x.detail, x.hint && `hint: ${x.hint}`].filter(Boolean).join(" ");
}

/** Opens a dedicated connection (the advisory lock is per session), migrates, closes it. */
export async function migratePostgres(connectionString: string, opts: MigrateOptions = {}): Promise<string[]> {
  let client: pg.Client;
  try {
    client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
    // Without a listener an idle connection error would crash the process.
    client.on("error", () => {});
    await client.connect();
  } catch (e) {
    throw new MigrationError(`Cannot connect to PostgreSQL at ${redactUrl(connectionString)}: ${describeError(e)}`, { cause: e });
  }
  try {
    return await applyMigrations(pgExecutor(client), opts);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}
