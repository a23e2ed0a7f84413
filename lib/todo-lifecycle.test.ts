import { test } from "node:test";
import assert from "node:assert/strict";
import { TODO_STATUSES, type TStatusAction } from "./schemas/todos.ts";
import { afterTurn, againSpec, allowedActions, initialStatus, nextStatus, onDue, onInput, onStartNow, turnCutByPause } from "./todo-lifecycle.ts";

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

test("only a turn the pause really cut resumes: never the unsent first message of a todo paused on its schedule", () => {
  const facts = { replyInProgress: false, pendingInput: false, dueScheduledInput: false };
  // Created without processing (its first message PENDING), then given a scheduled message, paused.
  assert.equal(turnCutByPause({ ...facts, pausedFrom: "SCHEDULED", pendingInput: true }), false);
  // Input that waited behind a running turn, or a reply half-written, is that turn's.
  assert.equal(turnCutByPause({ ...facts, pausedFrom: "RUNNING", pendingInput: true }), true);
  assert.equal(turnCutByPause({ ...facts, pausedFrom: "RUNNING", replyInProgress: true }), true);
  // A scheduled message that came due during the pause runs on resume.
  assert.equal(turnCutByPause({ ...facts, pausedFrom: "SCHEDULED", pendingInput: true, dueScheduledInput: true }), true);
  assert.equal(turnCutByPause({ ...facts, pausedFrom: "RUNNING" }), false);
  // Paused before the origin was recorded: waiting input counts, as it did.
  assert.equal(turnCutByPause({ ...facts, pendingInput: true }), true);
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

test("new input: STARTABLE todos start or schedule, busy ones wait, closed ones refuse", () => {
  const row = (mode: "now" | "scheduled" | "later") => Object.fromEntries(TODO_STATUSES.map((s) => [s, onInput(s, mode) ?? "-"]));
  assert.deepEqual(row("now"), { PROPOSED: "-", TODO: "RUNNING", SCHEDULED: "SCHEDULED", RUNNING: "RUNNING", PAUSED: "PAUSED", READY: "RUNNING", DONE: "RUNNING", ERROR: "RUNNING", CANCELLED: "-" });
  assert.deepEqual(row("scheduled"), { PROPOSED: "-", TODO: "SCHEDULED", SCHEDULED: "SCHEDULED", RUNNING: "RUNNING", PAUSED: "PAUSED", READY: "SCHEDULED", DONE: "SCHEDULED", ERROR: "SCHEDULED", CANCELLED: "-" });
  assert.deepEqual(row("later"), { PROPOSED: "-", TODO: "TODO", SCHEDULED: "SCHEDULED", RUNNING: "RUNNING", PAUSED: "PAUSED", READY: "READY", DONE: "DONE", ERROR: "ERROR", CANCELLED: "-" });
});

test("a due scheduled message runs a SCHEDULED or STARTABLE todo; an explicit start runs anything not closed", () => {
  assert.deepEqual(Object.fromEntries(TODO_STATUSES.map((s) => [s, onDue(s)])), {
    PROPOSED: "PROPOSED", TODO: "RUNNING", SCHEDULED: "RUNNING", RUNNING: "RUNNING", PAUSED: "PAUSED", READY: "RUNNING", DONE: "RUNNING", ERROR: "RUNNING", CANCELLED: "CANCELLED",
  });
  assert.deepEqual(TODO_STATUSES.filter((s) => onStartNow(s) === null), ["PROPOSED", "CANCELLED"]);
  assert.ok(TODO_STATUSES.every((s) => onStartNow(s) === null || onStartNow(s) === "RUNNING"));
});

test("a new todo starts PROPOSED, SCHEDULED, RUNNING or TODO", () => {
  assert.equal(initialStatus({ propose: true, startProcessing: true }), "PROPOSED");
  assert.equal(initialStatus({ scheduled: true, startProcessing: true }), "SCHEDULED");
  assert.equal(initialStatus({ startProcessing: true }), "RUNNING");
  assert.equal(initialStatus({ startProcessing: false }), "TODO");
});

test("againSpec takes a todo's text, group and agent, and nothing it does not have", () => {
  const base = { content: "Write the weekly report", groupSlug: null, agentSettings: null, assignedAgent: null, agentSettingsId: null, businessContextId: null };
  assert.deepEqual(againSpec(base), { content: "Write the weekly report" });
  const full = { ...base, groupSlug: "weekly", agentSettings: { provider: "openai", systemPrompt: "Be brief." }, assignedAgent: "writer", agentSettingsId: "s1", businessContextId: "b1" };
  assert.deepEqual(againSpec({ ...full, status: "DONE", metadata: { error: "x" } } as typeof full), { content: "Write the weekly report", groupSlug: "weekly", agentSettings: { provider: "openai", systemPrompt: "Be brief." }, assignedAgent: "writer", agentSettingsId: "s1", businessContextId: "b1" });
});
