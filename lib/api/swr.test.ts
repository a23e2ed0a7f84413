import { test } from "node:test";
import assert from "node:assert/strict";
import { keyMatches, operationKey } from "./swr.ts";

test("cache keys are [operationId, input]; events select them by operation and, optionally, by input", () => {
  const get = operationKey("project_get", { params: { projectId: "p1" } });
  const list = operationKey("project_list", {});
  assert.equal(keyMatches(list, ["project_list"]), true);
  assert.equal(keyMatches(get, ["project_list"]), false);
  assert.equal(keyMatches(get, ["project_list", "project_get"], (input) => (input.params as { projectId?: string }).projectId === "p1"), true);
  assert.equal(keyMatches(get, ["project_get"], (input) => (input.params as { projectId?: string }).projectId === "p2"), false);
  // Keys SWR holds for other purposes (strings, $inf$ pages) are never taken for an operation's.
  assert.equal(keyMatches("project_list", ["project_list"]), false);
  assert.equal(keyMatches(["project_list"], ["project_list"]), false);
});
