// Prisma's schema engine compiled to WebAssembly, driven directly: the Prisma 7 CLI would download
// a native engine, which cannot work offline. Used to author migrations and to detect drift.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { applyMigrations, MIGRATIONS_DIR, pgliteExecutor, readMigrations } from "./migrate.ts";

export const SCHEMA_PATH = fileURLToPath(new URL("../../prisma/schema.prisma", import.meta.url));
const FILTERS = { externalTables: [], externalEnums: [] };

type Bindings = typeof import("@prisma/schema-engine-wasm");
let bindings: Promise<Bindings> | undefined;

// The package entry does `import * as wasm from "./x.wasm"`, which Node only allows behind
// --experimental-wasm-modules; so instantiate the .wasm against its JS glue by hand, once.
function loadEngine(): Promise<Bindings> {
  bindings ??= (async () => {
    const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
    const bytes = await readFile(path.join(dir, "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue as WebAssembly.ModuleImports });
    const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start(): void };
    (glue as unknown as { __wbg_set_wasm(w: unknown): void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
    return glue as unknown as Bindings;
  })();
  return bindings;
}

/** Runs `fn` with an engine bound to `factory`, then frees the engine. */
export async function withSchemaEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  schema: string,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngine();
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const engine = await SchemaEngine.new({ datamodels: [["schema.prisma", schema]] }, () => {}, bound);
  try {
    return await fn(engine);
  } finally {
    engine.free();
  }
}

/** SQL that would bring the database to `schema`, or null when they already match. */
export async function diffDatabaseToSchema(factory: SqlMigrationAwareDriverAdapterFactory, schema: string): Promise<string | null> {
  const files = [{ path: "schema.prisma", content: schema }];
  const result = await withSchemaEngine(factory, schema, (engine) =>
    engine.diff({
      // "schemaDatasource" introspects the database behind the adapter; it ignores _prisma_migrations.
      from: { tag: "schemaDatasource", files, configDir: path.dirname(SCHEMA_PATH) },
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: true, // exitCode 2 means "not empty"
      filters: FILTERS,
    }),
  );
  return result.exitCode === 0 ? null : (result.stdout ?? "");
}

/**
 * Replays every migration with our runner on a fresh in-memory PGlite and returns the SQL from
 * there to `schema` (default: prisma/schema.prisma), or null when the migrations are complete.
 */
export async function diffMigrationsToSchema(opts: { schema?: string; migrationsDir?: string } = {}): Promise<string | null> {
  const schema = opts.schema ?? (await readFile(SCHEMA_PATH, "utf8"));
  const db = await PGlite.create();
  try {
    await applyMigrations(pgliteExecutor(db), { migrationsDir: opts.migrationsDir });
    return await diffDatabaseToSchema(pgliteFactory(db), schema);
  } finally {
    await db.close();
  }
}

/**
 * The same question answered by the engine's own replay (it applies the migrations on a shadow
 * in-memory PGlite); a cross-check that our runner and Prisma agree on what the files produce.
 */
export async function diffMigrationsToSchemaViaEngine(opts: { schema?: string; migrationsDir?: string } = {}): Promise<string | null> {
  const schema = opts.schema ?? (await readFile(SCHEMA_PATH, "utf8"));
  const baseDir = opts.migrationsDir ?? MIGRATIONS_DIR;
  const lockfile = await readFile(path.join(baseDir, "migration_lock.toml"), "utf8").catch(() => null);
  const migrationDirectories = (await readMigrations(baseDir)).map((m) => ({
    path: m.name,
    migrationFile: { path: "migration.sql", content: { tag: "ok" as const, value: m.sql } },
  }));
  const db = await PGlite.create();
  try {
    const result = await withSchemaEngine(pgliteFactory(db), schema, (engine) =>
      engine.diff({
        from: { tag: "migrations", baseDir, lockfile: { path: "migration_lock.toml", content: lockfile }, shadowDbInitScript: "", migrationDirectories },
        to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: schema }] },
        script: true,
        exitCode: true,
        filters: FILTERS,
      }),
    );
    return result.exitCode === 0 ? null : (result.stdout ?? "");
  } finally {
    await db.close();
  }
}

/**
 * pglite-prisma-adapter's factory with three fixes. Its executeScript does not await the query,
 * so a failing migration file (this engine build replays files through executeScript) escaped as
 * an unhandled rejection. Engine builds that send a whole file through executeRaw would hit the
 * extended protocol's one-statement limit, so parameterless multi-statement SQL goes to the script
 * path. And its shadow databases were never closed.
 */
export function pgliteFactory(db: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const base = new PrismaPGlite(db) as unknown as SqlMigrationAwareDriverAdapterFactory;
  return {
    provider: "postgres",
    adapterName: base.adapterName,
    connect: async () => withScripts(await base.connect(), db),
    connectToShadowDb: async () => {
      const shadow = await PGlite.create();
      const adapter = await (new PrismaPGlite(shadow) as unknown as SqlMigrationAwareDriverAdapterFactory).connect();
      return withScripts(adapter, shadow, () => shadow.close());
    },
  };
}

function withScripts(adapter: SqlDriverAdapter, db: PGlite, onDispose?: () => Promise<void>): SqlDriverAdapter {
  const executeScript = async (script: string): Promise<void> => {
    try {
      await db.exec(script);
    } catch (e) {
      const x = e as { code?: string; severity?: string; message?: string; detail?: string; column?: string; hint?: string };
      // A DriverAdapterError reaches the engine with its message; anything else becomes "External error id#N".
      throw new DriverAdapterError({ kind: "postgres", code: x.code ?? "", severity: x.severity ?? "ERROR", message: x.message ?? String(e), detail: x.detail, column: x.column, hint: x.hint });
    }
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (q) => adapter.queryRaw(q),
    // A parameterless statement followed by more text after a ";" is a script.
    executeRaw: async (q) => (q.args.length === 0 && /;\s*\S/.test(q.sql) ? (await executeScript(q.sql), 0) : adapter.executeRaw(q)),
    executeScript,
    startTransaction: (level) => adapter.startTransaction(level),
    getConnectionInfo: () => adapter.getConnectionInfo?.() ?? { supportsRelationJoins: true },
    dispose: async () => {
      await adapter.dispose();
      await onDispose?.();
    },
  };
}

/**
 * A factory for reading a PostgreSQL server's schema (introspection only). @prisma/adapter-pg
 * 7.10.1 rejects pg_catalog's `"char"` columns (oid 18) that the engine's introspection selects;
 * they are plain one-letter strings, so the pool reports them as text. Call close() when done.
 */
export function postgresIntrospectionFactory(connectionString: string): { factory: SqlMigrationAwareDriverAdapterFactory; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on("error", () => {});
  const query = pool.query.bind(pool) as (config: unknown) => Promise<pg.QueryResult | pg.QueryResult[]>;
  (pool as unknown as { query: typeof query }).query = async (config) => {
    const result = await query(config);
    for (const r of Array.isArray(result) ? result : [result]) {
      for (const f of r.fields ?? []) if (f.dataTypeID === 18) f.dataTypeID = 25;
    }
    return result;
  };
  // connectToShadowDb is never used for introspection; adapter-pg's misbehaves with a URL anyway.
  const factory = new PrismaPg(pool) as unknown as SqlMigrationAwareDriverAdapterFactory;
  return { factory, close: () => pool.end() };
}
