import { test } from "node:test";
import assert from "node:assert/strict";
import { plural, utcDays } from "./format.ts";

test("utcDays lists every UTC day of the range, both ends included, gaps and month ends too", () => {
  const from = Date.parse("2026-02-27T18:00:00Z");
  const to = Date.parse("2026-03-02T01:00:00Z");
  assert.deepEqual(utcDays(from, to), ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
  assert.deepEqual(utcDays(to, to), ["2026-03-02"]);
  assert.deepEqual(utcDays(to, from), []);
});

test("plural", () => {
  assert.equal(plural(1, "turn"), "1 turn");
  assert.equal(plural(0, "turn"), "0 turns");
  assert.equal(plural(3, "entry", "entries"), "3 entries");
});
