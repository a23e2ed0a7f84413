import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "./errors.ts";
import { MAX_INPUT_DEPTH, guardInput } from "./input-guard.ts";

function refused(value: unknown, location: "path" | "query" | "body" = "body"): { path: string; code?: string }[] {
  try {
    guardInput(value, location);
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 400);
    return (e.data as { issues: { path: string; code?: string }[] }).issues;
  }
  return [];
}

describe("guardInput: the rules every input obeys", () => {
  test("a NUL or a lone surrogate anywhere is 400 naming where", () => {
    assert.deepEqual(refused({ a: [1, { b: "x\u0000" }] }).map((i) => i.path), ["body.a.1.b"]);
    assert.deepEqual(refused({ todoId: "\u0000" }, "path").map((i) => i.path), ["path.todoId"]);
    assert.deepEqual(refused({ search: "\ud800" }, "query").map((i) => i.path), ["query.search"]);
    assert.deepEqual(refused("\u0000").map((i) => i.path), ["body"]);
  });
  test("in an object key too", () => {
    assert.deepEqual(refused({ meta: { ["k\u0000"]: 1 } }).map((i) => i.path), ["body.meta.<key>"]);
    assert.equal(refused({ ["\udfff"]: 1 }).length, 1);
  });
  test("a number that overflowed to Infinity (1e400 in the JSON) is 400, also inside free-form JSON", () => {
    const body = JSON.parse('{"metadata": {"a": 1e400, "b": [-1e400]}, "n": 1.7e308}') as unknown;
    assert.deepEqual(refused(body).map((i) => [i.path, i.code]).sort(), [["body.metadata.a", "too_big"], ["body.metadata.b.0", "too_big"]]);
  });
  test(`nesting deeper than ${MAX_INPUT_DEPTH} is 400, iteratively (no stack overflow at 500,000 levels)`, () => {
    const deep = JSON.parse("[".repeat(500_000) + "]".repeat(500_000)) as unknown;
    assert.equal(refused(deep)[0]!.code, "too_deep");
    const justRight = JSON.parse("[".repeat(MAX_INPUT_DEPTH) + "]".repeat(MAX_INPUT_DEPTH)) as unknown;
    assert.deepEqual(refused(justRight), []);
  });
  test("ordinary and unusual-but-valid input passes; issues are capped", () => {
    assert.deepEqual(refused({ name: "\u202Eabc 👩🏽‍💻 漢字", n: 1, b: true, z: null, __proto__: { x: 1 }, list: ["a", "b"] }), []);
    assert.deepEqual(refused(undefined), []);
    assert.equal(refused(Array.from({ length: 1000 }, () => "\u0000")).length, 10);
  });
});
