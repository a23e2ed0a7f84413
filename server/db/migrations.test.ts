// Run: node --import tsx --test server/db/*.test.ts
// Drift check: the migrations, replayed on a fresh database, must produce exactly schema.prisma.
import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test, type TestContext } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { applyMigrations, migratePostgres, MIGRATIONS_DIR, pgliteExecutor, readMigrations } from "./migrate.ts";
import { openDatabase } from "./open.ts";
import {
  diffDatabaseToSchema,
  diffMigrationsToSchema,
  diffMigrationsToSchemaViaEngine,
  postgresIntrospectionFactory,
  SCHEMA_PATH,
} from "./schema-engine.ts";

const DRIFT_HINT = "prisma/schema.prisma differs from prisma/migrations: run `npm run db:new-migration -- <name>`.\n";
// A schema edit nobody wrote a migration for.
const editedSchema = (schema: string): string => schema.replace("model User {\n", "model User {\n  nickname String?\n");

describe("migrations match schema.prisma", () => {
  test("replayed on a fresh in-memory PGlite, the diff to schema.prisma is empty", async () => {
    const diff = await diffMigrationsToSchema();
    assert.equal(diff, null, DRIFT_HINT + diff);
  });

  test("the check fails when schema.prisma changes without a migration", async () => {
    const schema = editedSchema(await readFile(SCHEMA_PATH, "utf8"));
    const diff = await diffMigrationsToSchema({ schema });
    assert.match(diff ?? "", /ALTER TABLE "User" ADD COLUMN\s+"nickname" TEXT/);
  });

  test("the engine's own replay of the migrations agrees", async () => {
    const diff = await diffMigrationsToSchemaViaEngine();
    assert.equal(diff, null, DRIFT_HINT + diff);
  });
});

// ---------- PostgreSQL server ----------

const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** A fresh database on the server, dropped by the returned function; null (test skipped) if unreachable outside CI. */
async function freshPgDatabase(t: TestContext): Promise<{ url: string; drop(): Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (e) {
    if (process.env.CI === "true") throw new Error(`PostgreSQL unreachable at ${ADMIN_URL} (set TEST_PG_ADMIN_URL): ${String(e)}`);
    t.skip(`PostgreSQL unreachable at ${ADMIN_URL} (set TEST_PG_ADMIN_URL); skipped`);
    return null;
  }
  const name = `test_migrations_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe("PostgreSQL server", () => {
  test("migrations replayed on a fresh PostgreSQL database match schema.prisma", async (t) => {
    const db = await freshPgDatabase(t);
    if (!db) return;
    const { factory, close } = postgresIntrospectionFactory(db.url);
    try {
      await migratePostgres(db.url);
      const schema = await readFile(SCHEMA_PATH, "utf8");
      const diff = await diffDatabaseToSchema(factory, schema);
      assert.equal(diff, null, DRIFT_HINT + diff);
      assert.notEqual(await diffDatabaseToSchema(factory, editedSchema(schema)), null);
    } finally {
      await close();
      await db.drop();
    }
  });

  test("concurrent runners against one database both succeed and apply each migration once", async (t) => {
    const db = await freshPgDatabase(t);
    if (!db) return;
    try {
      const results = await Promise.all([migratePostgres(db.url), migratePostgres(db.url), migratePostgres(db.url)]);
      const names = (await readMigrations()).map((m) => m.name);
      assert.deepEqual(results.flat().sort(), names);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query(
        `SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
      );
      await client.end();
      assert.deepEqual(rows, names.map((migration_name) => ({ migration_name, n: 1 })));
    } finally {
      await db.drop();
    }
  });

  test("an unreachable server gives a clear error", async () => {
    await assert.rejects(openDatabase({ databaseUrl: "postgresql://nobody:secret@127.0.0.1:1/none" }), (e: Error) => {
      assert.match(e.message, /Could not open the PostgreSQL database postgresql:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none: .*ECONNREFUSED/);
      return true;
    });
    await assert.rejects(openDatabase({ databaseUrl: "mysql://x@y/z" }), /must be a postgresql:\/\/ URL/);
  });
});

// ---------- Embedded PGlite ----------

describe("embedded PGlite", () => {
  let tmp: string;
  before(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), "db-test-"));
  });
  after(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  test("openDatabase on memory:// gives a working PrismaClient", async () => {
    const db = await openDatabase({ dataDir: "memory://" });
    try {
      assert.equal(db.kind, "pglite");
      const created = await db.prisma.user.create({ data: { email: "ada@example.com", name: "Ada" } });
      const read = await db.prisma.user.findUnique({ where: { email: "ada@example.com" } });
      assert.equal(read?.id, created.id);
      assert.equal(read?.name, "Ada");
    } finally {
      await db.close();
    }
  });

  test("reopening a data directory keeps the data and applies nothing twice", async () => {
    const dataDir = path.join(tmp, "nested", "pglite"); // parents do not exist yet
    const first: string[] = [];
    const db1 = await openDatabase({ dataDir, log: (m) => first.push(m) });
    await db1.prisma.user.create({ data: { email: "bob@example.com" } });
    await assert.rejects(openDatabase({ dataDir }), /already open in this process/);
    await db1.close();
    assert.ok(first.some((m) => m.includes("applied")), first.join("\n"));

    const second: string[] = [];
    const db2 = await openDatabase({ dataDir, log: (m) => second.push(m) });
    try {
      assert.equal(await db2.prisma.user.count(), 1);
      assert.ok(!second.some((m) => m.includes("applied")), second.join("\n"));
    } finally {
      await db2.close();
    }
  });

  test("applying twice is a no-op; an edited applied migration is an error", async () => {
    const dir = path.join(tmp, "migrations");
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const db = await PGlite.create();
    try {
      const exec = pgliteExecutor(db);
      assert.equal((await applyMigrations(exec, { migrationsDir: dir })).length, (await readMigrations(dir)).length);
      assert.deepEqual(await applyMigrations(exec, { migrationsDir: dir }), []);
      const [first] = await readMigrations(dir);
      await writeFile(path.join(dir, first.name, "migration.sql"), first.sql + "\n-- edited\n");
      await assert.rejects(applyMigrations(exec, { migrationsDir: dir }), new RegExp(`Migration ${first.name} was modified after it was applied`));
    } finally {
      await db.close();
    }
  });

  test("message_author: existing user messages get their todo's creator as author, the agent's none; deleting the author keeps the message", async () => {
    const dir = path.join(tmp, "before-author");
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const authorMigration = (await readMigrations(dir)).find((m) => m.name.endsWith("_message_author"))!;
    assert.ok(authorMigration, "the message_author migration exists");
    await rm(path.join(dir, authorMigration.name), { recursive: true });
    const db = await PGlite.create();
    try {
      const exec = pgliteExecutor(db);
      await applyMigrations(exec, { migrationsDir: dir });
      await exec.query(`INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'owner@example.com', now()), ('u2', 'editor@example.com', now())`);
      await exec.query(`INSERT INTO "Project" ("id", "ownerId", "name", "updatedAt") VALUES ('p1', 'u1', 'P', now())`);
      await exec.query(`INSERT INTO "Todo" ("id", "projectId", "userId", "content", "updatedAt") VALUES ('t1', 'p1', 'u1', 'T', now()), ('t2', 'p1', 'u2', 'T2', now())`);
      await exec.query(
        `INSERT INTO "Message" ("id", "todoId", "role", "content", "updatedAt") VALUES ('m1', 't1', 'user', 'hi', now()), ('m2', 't1', 'assistant', 'hello', now()), ('m3', 't1', 'system', 'sys', now()), ('m4', 't2', 'user', 'mine', now())`,
      );
      await cp(path.join(MIGRATIONS_DIR, authorMigration.name), path.join(dir, authorMigration.name), { recursive: true });
      assert.deepEqual(await applyMigrations(exec, { migrationsDir: dir }), [authorMigration.name]);
      const rows = await exec.query<{ id: string; authorId: string | null }>(`SELECT "id", "authorId" FROM "Message" ORDER BY "id"`);
      assert.deepEqual(rows.map((r) => [r.id, r.authorId]), [["m1", "u1"], ["m2", null], ["m3", null], ["m4", "u2"]]);
      // The editor's account goes: their todo with it (cascade); a message of theirs elsewhere stays, authorless.
      await exec.query(`UPDATE "Message" SET "authorId" = 'u2' WHERE "id" = 'm1'`);
      await exec.query(`DELETE FROM "Todo" WHERE "userId" = 'u2'`);
      await exec.query(`DELETE FROM "User" WHERE "id" = 'u2'`);
      const left = await exec.query<{ id: string; authorId: string | null }>(`SELECT "id", "authorId" FROM "Message" ORDER BY "id"`);
      assert.deepEqual(left.map((r) => [r.id, r.authorId]), [["m1", null], ["m2", null], ["m3", null]]);
    } finally {
      await db.close();
    }
  });

  test("a failing migration is rolled back and not recorded", async () => {
    const dir = path.join(tmp, "failing");
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const bad = path.join(dir, "99990101000000_bad");
    await cp(path.join(dir, (await readMigrations(dir))[0].name), bad, { recursive: true });
    await writeFile(path.join(bad, "migration.sql"), `CREATE TABLE "Half" (id INT);\nSELECT no_such_function();\n`);
    const db = await PGlite.create();
    try {
      const exec = pgliteExecutor(db);
      await assert.rejects(applyMigrations(exec, { migrationsDir: dir }), /Migration 99990101000000_bad failed and was rolled back: .*no_such_function/);
      const rows = await exec.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE migration_name = $1`, ["99990101000000_bad"]);
      assert.equal(rows[0].n, 0);
      assert.equal((await exec.query(`SELECT to_regclass('"Half"') AS t`))[0].t, null);
    } finally {
      await db.close();
    }
  });
});
