// The migration that moves the turn's lease out of the workflow JSON keeps every lease it finds.
import assert from "node:assert/strict";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations, MIGRATIONS_DIR, pgliteExecutor, readMigrations } from "./migrate.ts";

const LEASE_MIGRATION = "20261123130100_todo_turn_lease";

test("todo_turn_lease: workflow.lease becomes leaseOwner/leaseUntil, and leaves the workflow", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "lease-migration-"));
  const db = new PGlite();
  try {
    const names = (await readMigrations()).map((m) => m.name);
    const before = names.slice(0, names.indexOf(LEASE_MIGRATION));
    assert.ok(before.length > 0 && names.includes(LEASE_MIGRATION));
    for (const name of before) await cp(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
    const sql = pgliteExecutor(db);
    await applyMigrations(sql, { migrationsDir: dir });
    await db.exec(`
      INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u', 'u@x.test', now());
      INSERT INTO "Project" ("id", "ownerId", "name", "updatedAt") VALUES ('p', 'u', 'P', now());
      INSERT INTO "Todo" ("id", "projectId", "userId", "content", "updatedAt", "status", "workflow") VALUES
        ('held', 'p', 'u', 'c', now(), 'RUNNING', '{"lease": {"owner": "proc-1", "until": 1800000000123}, "currentTurn": {"messageId": "m"}, "turn": 2}'),
        ('voided', 'p', 'u', 'c', now(), 'RUNNING', '{"lease": {"owner": "proc-2", "until": 0}}'),
        ('free', 'p', 'u', 'c', now(), 'READY', '{"turn": 1}');
    `);
    await cp(path.join(MIGRATIONS_DIR, LEASE_MIGRATION), path.join(dir, LEASE_MIGRATION), { recursive: true });
    assert.deepEqual(await applyMigrations(sql, { migrationsDir: dir }), [LEASE_MIGRATION]);
    const rows = await sql.query<{ id: string; leaseOwner: string | null; until: string | null; workflow: unknown }>(
      `SELECT "id", "leaseOwner", (extract(epoch FROM "leaseUntil" AT TIME ZONE 'UTC') * 1000)::bigint::text AS "until", "workflow" FROM "Todo" ORDER BY "id"`,
    );
    assert.deepEqual(rows, [
      { id: "free", leaseOwner: null, until: null, workflow: { turn: 1 } },
      { id: "held", leaseOwner: "proc-1", until: "1800000000123", workflow: { currentTurn: { messageId: "m" }, turn: 2 } },
      { id: "voided", leaseOwner: "proc-2", until: "0", workflow: {} },
    ]);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
});
