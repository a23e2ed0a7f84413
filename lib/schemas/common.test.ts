import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MAX_EPOCH_MS, MAX_JSON_DEPTH, ZEpochMs, ZEpochMsQuery, ZJsonObject, ZLimit, epochMs, epochMsOrNull, jsonDepth, unsafeTextReason } from "./common.ts";

describe("ZLimit: every limit-like parameter", () => {
  test("default 50; any integer above 200, however large, is clamped to 200", () => {
    assert.equal(ZLimit.parse(undefined), 50);
    assert.equal(ZLimit.parse("1"), 1);
    assert.equal(ZLimit.parse("200"), 200);
    assert.equal(ZLimit.parse("201"), 200);
    assert.equal(ZLimit.parse("100000000000000000000"), 200);
    assert.equal(ZLimit.parse(5000), 200);
  });
  test("0, negatives, fractions, infinities and non-numbers are refused", () => {
    for (const bad of ["0", "-1", "1.5", "abc", "", "1e400", "Infinity", "NaN"]) assert.equal(ZLimit.safeParse(bad).success, false, bad);
  });
});

describe("ZEpochMs: every date input", () => {
  test("1970 through the last instant of 9999", () => {
    assert.equal(ZEpochMs.parse(0), 0);
    assert.equal(ZEpochMs.parse(MAX_EPOCH_MS), MAX_EPOCH_MS);
    assert.equal(new Date(MAX_EPOCH_MS).toISOString(), "9999-12-31T23:59:59.999Z");
    for (const bad of [-1, MAX_EPOCH_MS + 1, Date.UTC(10000, 0, 1), 8_640_000_000_000_000, 8_640_000_000_000_001, 1.5, NaN]) assert.equal(ZEpochMs.safeParse(bad).success, false, String(bad));
  });
  test("in a query string", () => {
    assert.equal(ZEpochMsQuery.parse("1700000000000"), 1_700_000_000_000);
    for (const bad of ["8640000000000001", "-1", "abc", "1e400", "", "  "]) assert.equal(ZEpochMsQuery.safeParse(bad).success, false, bad);
  });
  test("epochMs never leaves the bounds, even for a Date the driver could not read", () => {
    assert.equal(epochMs(new Date(Number.NaN)), MAX_EPOCH_MS);
    assert.equal(epochMs(new Date(8_640_000_000_000_000)), MAX_EPOCH_MS);
    assert.equal(epochMs(new Date(-5)), 0);
    assert.equal(epochMs(new Date(1234)), 1234);
    assert.equal(epochMsOrNull(null), null);
    assert.equal(ZEpochMs.safeParse(epochMs(new Date("10000-01-01"))).success, true);
  });
});

describe("ZJsonObject: every free-form JSON field", () => {
  const nest = (levels: number) => JSON.parse('{"n":'.repeat(levels - 1) + "{}" + "}".repeat(levels - 1)) as Record<string, unknown>;
  test(`at most ${MAX_JSON_DEPTH} levels deep`, () => {
    assert.equal(ZJsonObject.safeParse(nest(MAX_JSON_DEPTH)).success, true);
    assert.equal(ZJsonObject.safeParse(nest(MAX_JSON_DEPTH + 1)).success, false);
    assert.equal(ZJsonObject.safeParse(nest(100_000)).success, false);
  });
  test("at most 64 K characters as JSON", () => {
    assert.equal(ZJsonObject.safeParse({ a: "x".repeat(60_000) }).success, true);
    assert.equal(ZJsonObject.safeParse({ a: "x".repeat(70_000) }).success, false);
  });
  test("jsonDepth counts without recursion", () => {
    assert.equal(jsonDepth(1), 0);
    assert.equal(jsonDepth({}), 1);
    assert.equal(jsonDepth({ a: [{ b: 1 }] }), 3);
    assert.equal(jsonDepth(nest(200_000)), 200_000);
  });
});

describe("unsafeTextReason: what no input string may hold", () => {
  test("NUL and lone surrogates", () => {
    assert.match(unsafeTextReason("a\u0000b")!, /NUL/);
    assert.match(unsafeTextReason("a\ud800b")!, /surrogate/);
    assert.match(unsafeTextReason("\udc00")!, /surrogate/);
    assert.match(unsafeTextReason("x\ud83d")!, /surrogate/);
  });
  test("everything else passes: RTL marks, zero-width, emoji, CJK, combining marks, other controls", () => {
    for (const ok of ["", "plain", "\u202Eabc\u202C", "a\u200B\u200Db", "👩🏽‍💻🇫🇷", "漢字かな한글", "e\u0301", "\uFEFF", "\u0001\u001f\t\n", "\ud83d\ude00"]) assert.equal(unsafeTextReason(ok), null, JSON.stringify(ok));
  });
});
