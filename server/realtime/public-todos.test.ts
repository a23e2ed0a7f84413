import { test } from "node:test";
import assert from "node:assert/strict";
import type { AppEvent } from "./bus.ts";
import { publicSignal } from "./public-todos.ts";

const event = (type: AppEvent["type"], data: unknown, ids: Partial<AppEvent> = { projectId: "p", todoId: "t" }): AppEvent => ({ type, id: "e1", at: 5, ...ids, data });

test("a public todo's viewers hear that it changed, and nothing of the change", () => {
  const secret = { role: "assistant", content: "the reply", usage: { costCents: 3 }, userId: "owner" };
  for (const type of ["todo.updated", "todo.status", "message.created", "message.updated", "block.updated"] as const) {
    const signal = publicSignal(event(type, secret));
    assert.deepEqual(signal, { room: "public:t", envelope: { type: "publicTodo.changed", id: "e1", at: 5, todoId: "t", data: {} }, ends: false }, type);
  }
});

test("system messages, deltas, project events and other users' events send nothing", () => {
  assert.equal(publicSignal(event("message.created", { role: "system", content: "$ ls\\nsecret.txt" })), null);
  assert.equal(publicSignal(event("message.updated", { role: "system" })), null);
  assert.equal(publicSignal(event("message.delta", { delta: "text" })), null);
  assert.equal(publicSignal(event("project.updated", { action: "updated" }, { projectId: "p" })), null);
  assert.equal(publicSignal(event("device.online", { deviceId: "d" }, { userId: "u" })), null);
});

test("made private or deleted: the signal is the last the viewers hear", () => {
  assert.equal(publicSignal(event("todo.updated", { isPublic: false }))?.ends, true);
  assert.equal(publicSignal(event("todo.updated", { isPublic: true }))?.ends, false);
  assert.equal(publicSignal(event("todo.deleted", { todoId: "t" }))?.ends, true);
});
