import { test } from "node:test";
import assert from "node:assert/strict";
import { readiness, type HealthProbe } from "./health.ts";

const probe = (over: Partial<HealthProbe>): HealthProbe => ({ draining: () => false, database: async () => 1, redis: () => undefined, ...over });

test("ready with the database up; Redis absent is not degraded", async () => {
  assert.deepEqual(await readiness(probe({})), { status: "ready", database: "up", redis: "none" });
  assert.deepEqual(await readiness(probe({ redis: () => true })), { status: "ready", database: "up", redis: "up" });
});

test("Redis down: degraded, still served", async () => {
  assert.deepEqual(await readiness(probe({ redis: () => false })), { status: "degraded", database: "up", redis: "down" });
});

test("database failing or throwing synchronously: unavailable", async () => {
  assert.equal((await readiness(probe({ database: async () => Promise.reject(new Error("down")) }))).status, "unavailable");
  assert.equal(
    (
      await readiness(
        probe({
          database: () => {
            throw new Error("sync");
          },
        }),
      )
    ).status,
    "unavailable",
  );
});

test("draining wins and does not touch the database", async () => {
  let asked = false;
  const r = await readiness(probe({ draining: () => true, database: async () => (asked = true) }));
  assert.equal(r.status, "draining");
  assert.equal(asked, false);
});

test("a database that does not answer in time: unavailable", async () => {
  const r = await readiness(probe({ database: () => new Promise(() => undefined) }), 20);
  assert.deepEqual(r, { status: "unavailable", database: "down", redis: "none" });
});
