import assert from "node:assert/strict";
import { test } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import { withStatementCache } from "./pglite-statements.ts";

// Prisma's embedded-database handle keeps a prepared statement per SQL text: the same answers as
// PGlite's own query(), errors as PGlite raises them, transactions that commit and roll back, and
// a bounded number of statements.

async function fresh() {
  const raw = await PGlite.create();
  await raw.exec(`CREATE TABLE t (id int PRIMARY KEY, name text, data jsonb, at timestamp(3))`);
  return { raw, db: withStatementCache(raw, 3) };
}

const prepared = async (raw: PGlite) => (await raw.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements`)).rows[0]!.n;

test("answers as PGlite's own query does: rows, row mode, parameters of every kind, affected rows", async () => {
  const { raw, db } = await fresh();
  const at = new Date("2026-11-26T10:00:00.000Z");
  const insert = await db.query(`INSERT INTO t (id, name, data, at) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)`, [1, "one", JSON.stringify({ a: 1 }), at, 2, null, null, null]);
  assert.equal(insert.affectedRows, 2);
  for (const options of [undefined, { rowMode: "array" as const }]) {
    const sql = `SELECT id, name, data, at FROM t WHERE id >= $1 ORDER BY id`;
    assert.deepEqual(await db.query(sql, [1], options), await raw.query(sql, [1], options));
  }
  assert.equal(await prepared(raw), 2, "one statement per SQL text, reused");
  await db.query(`SELECT id, name, data, at FROM t WHERE id >= $1 ORDER BY id`, [2]);
  assert.equal(await prepared(raw), 2);
  await raw.close();
});

test("an error is PGlite's, changes nothing, and the next query works", async () => {
  const { raw, db } = await fresh();
  await db.query(`INSERT INTO t (id, name) VALUES ($1, $2)`, [1, "one"]);
  await assert.rejects(db.query(`INSERT INTO t (id, name) VALUES ($1, $2)`, [1, "again"]), (e: Error & { code?: string }) => e.code === "23505");
  await assert.rejects(db.query(`SELECT nope FROM t`), (e: Error & { code?: string }) => e.code === "42703");
  assert.deepEqual((await db.query(`SELECT name FROM t`)).rows, [{ name: "one" }]);
  await raw.close();
});

test("transactions commit and roll back through the prepared statements", async () => {
  const { raw, db } = await fresh();
  await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO t (id, name) VALUES ($1, $2)`, [1, "kept"]);
  });
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query(`INSERT INTO t (id, name) VALUES ($1, $2)`, [2, "dropped"]);
      await tx.query(`INSERT INTO t (id, name) VALUES ($1, $2)`, [1, "duplicate"]);
    }),
    (e: Error & { code?: string }) => e.code === "23505",
  );
  assert.deepEqual((await db.query(`SELECT id, name FROM t ORDER BY id`)).rows, [{ id: 1, name: "kept" }]);
  await raw.close();
});

test("at most `size` statements are kept: the one used longest ago is closed", async () => {
  const { raw, db } = await fresh();
  for (let i = 0; i < 6; i++) assert.deepEqual((await db.query(`SELECT $1::int + ${i} AS n`, [1])).rows, [{ n: 1 + i }]);
  assert.equal(await prepared(raw), 3);
  // The newest three are still answered, and so is an evicted one, prepared again.
  assert.deepEqual((await db.query(`SELECT $1::int + 5 AS n`, [1])).rows, [{ n: 6 }]);
  assert.deepEqual((await db.query(`SELECT $1::int + 0 AS n`, [1])).rows, [{ n: 1 }]);
  assert.equal(await prepared(raw), 3);
  await raw.close();
});

test("one SQL text with other declared parameter types is another statement", async () => {
  const { raw, db } = await fresh();
  assert.deepEqual((await db.query(`SELECT $1 AS v`, ["7"], { paramTypes: [23] })).rows, [{ v: 7 }]);
  assert.deepEqual((await db.query(`SELECT $1 AS v`, ["7"], { paramTypes: [25] })).rows, [{ v: "7" }]);
  assert.equal(await prepared(raw), 2);
  await raw.close();
});
