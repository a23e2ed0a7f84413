import { test } from "node:test";
import assert from "node:assert/strict";
import { TODO_STATUSES, type TStatusAction } from "./schemas/todos.ts";
import { afterTurn, allowedActions, nextStatus } from "./todo-lifecycle.ts";

const none = { turnInterrupted: false, hasScheduled: false };

test("the lifecycle table of CONVENTIONS.md, every status × action", () => {
  const actions: TStatusAction[] = ["pause", "resume", "complete", "cancel", "accept", "dismiss"];
  const table = Object.fromEntries(TODO_STATUSES.map((s) => [s, actions.map((a) => nextStatus(s, a, none) ?? "-").join(" ")]));
  assert.deepEqual(table, {
    //          pause    resume  complete cancel      accept   dismiss
    PROPOSED: "- - DONE CANCELLED RUNNING CANCELLED",
    TODO: "- - DONE CANCELLED - -",
    SCHEDULED: "PAUSED - DONE CANCELLED - -",
    RUNNING: "PAUSED - DONE CANCELLED - -",
    PAUSED: "- READY DONE CANCELLED - -",
    READY: "- - DONE CANCELLED - -",
    DONE: "- - - - - -",
    ERROR: "- - DONE CANCELLED - -",
    CANCELLED: "- - - - - -",
  });
});

test("resume continues an interrupted turn, else returns to the schedule, else READY", () => {
  assert.equal(nextStatus("PAUSED", "resume", { turnInterrupted: true, hasScheduled: true }), "RUNNING");
  assert.equal(nextStatus("PAUSED", "resume", { turnInterrupted: false, hasScheduled: true }), "SCHEDULED");
  assert.equal(nextStatus("PAUSED", "resume", none), "READY");
});

test("after a turn: more input runs again, a coming schedule waits, else READY", () => {
  assert.equal(afterTurn({ pendingInput: true, hasScheduled: true }), "RUNNING");
  assert.equal(afterTurn({ pendingInput: false, hasScheduled: true }), "SCHEDULED");
  assert.equal(afterTurn({ pendingInput: false, hasScheduled: false }), "READY");
});

test("allowedActions lists what the table allows, in a fixed order", () => {
  assert.deepEqual(allowedActions("RUNNING"), ["pause", "complete", "cancel"]);
  assert.deepEqual(allowedActions("PAUSED"), ["resume", "complete", "cancel"]);
  assert.deepEqual(allowedActions("PROPOSED"), ["complete", "cancel", "accept", "dismiss"]);
  assert.deepEqual(allowedActions("DONE"), []);
  assert.deepEqual(allowedActions("CANCELLED"), []);
});
