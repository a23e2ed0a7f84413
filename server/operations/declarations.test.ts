import { test } from "node:test";
import assert from "node:assert/strict";
import { basesOf } from "../http/define.ts";
import { RATE_POLICIES } from "../http/rate-limit.ts";
import { operations } from "./index.ts";

// What each operation declares beyond its input and output (docs/api.md "Device tokens",
// "Rate limits"). A new operation that widens the device surface must be added here on purpose.

/** The /dst/v1 surface: reads, and the work on todos that a bridge does; no account, key, settings or project management. */
const SERVED_TO_DEVICES = [
  "user_profile",
  "project_list",
  "project_get",
  "project_groups",
  "project_cards",
  "project_subscribe",
  "project_getBrand",
  "project_createTodo",
  "todo_list",
  "todo_get",
  "todo_getMessages",
  "todo_addMessage",
  "todo_updateMessage",
  "todo_updateAndStart",
  "todo_updateStatus",
  "todo_toggleBlockChecked",
  "todo_linkBlockSubTodo",
  "todo_getWorkflow",
  "todo_updateWorkflow",
  "todo_subscribe",
  "todo_reportAiOutput",
  "todo_searchMessages",
  "todo_getPublic",
  "task_getPending",
  "settings_getUserSettings",
  "settings_getProjectSettings",
  "meta_openapi",
  // Needs no credential at all (served on every base), like project_getBrand.
  "billing_previewTeamInvite",
  // Devices (issue 14): a bridge lists devices, reads the cloud device, reports its own workspace
  // paths and asks for mayfly tokens; the public command-line login operations serve every base.
  "device_list",
  "device_cloud",
  "device_setWorkspacePaths",
  "cli_mayflyToken",
  "cli_loginInit",
  "cli_loginPoll",
  "cli_deviceToken",
  // Courses (issue 16): the public course page and its signup need no credential.
  "course_get",
  "course_signup",
];

test("/dst/v1 serves an explicit list of operations, not everything but keys and billing", () => {
  const served = operations.filter((op) => basesOf(op).includes("dst")).map((op) => op.id);
  assert.deepEqual([...served].sort(), [...SERVED_TO_DEVICES].sort());
});

test("tighter rate limits are declared where abuse is cheap, and every declared policy exists", () => {
  const policyOf = (id: string) => operations.find((op) => op.id === id)?.rateLimit;
  assert.equal(policyOf("project_share"), "share");
  assert.equal(policyOf("todo_reportAiOutput"), "report");
  assert.equal(policyOf("billing_addTeamMember"), "invite");
  for (const op of operations.filter((o) => o.id.endsWith("_subscribe"))) assert.equal(op.rateLimit, "subscribe", op.id);
  for (const op of operations) assert.ok(op.rateLimit === undefined || op.rateLimit in RATE_POLICIES, op.id);
});

test("every `limit` query parameter pages as CONVENTIONS.md says: default 50, above 200 clamped, 0 refused", () => {
  // todo_searchUnified counts todos with exact matches, a smaller unit (docs/api.md "Unified search").
  const ownBounds = new Set(["todo_searchUnified"]);
  let checked = 0;
  for (const op of operations) {
    const limit = op.query?.shape.limit as import("zod").ZodType | undefined;
    if (!limit || ownBounds.has(op.id)) continue;
    checked++;
    assert.equal(limit.parse(undefined), 50, `${op.id}: default`);
    assert.equal(limit.parse("200"), 200, op.id);
    assert.equal(limit.parse("201"), 200, `${op.id}: 201 is clamped`);
    assert.equal(limit.parse("1000000000000000000000"), 200, `${op.id}: however large`);
    for (const bad of ["0", "-1", "1.5", "abc"]) assert.equal(limit.safeParse(bad).success, false, `${op.id}: ${bad}`);
  }
  assert.ok(checked >= 8, `only ${checked} operations with a limit`);
});
