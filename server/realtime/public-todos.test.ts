import { test } from "node:test";
import assert from "node:assert/strict";
import type { AppEvent } from "./bus.ts";
import { publicSignal } from "./public-todos.ts";

const event = (type: AppEvent["type"], data: unknown, ids: Partial<AppEvent> = { projectId: "p", todoId: "t", toPublic: true }): AppEvent => ({ type, id: "e1", at: 5, ...ids, data });

const changed = { room: "public:t", envelope: { type: "publicTodo.changed", id: "e1", at: 5, todoId: "t", data: {} }, ends: false };

test("a public todo's viewers hear that it changed, and nothing of the change", () => {
  const secret = { id: "t", content: "the todo", metadata: { error: "a stack" }, usage: { costCents: 3 }, userId: "owner" };
  for (const type of ["todo.updated", "todo.status", "block.updated"] as const) assert.deepEqual(publicSignal(event(type, secret)), changed, type);
});

test("a public todo's messages reach its viewers as the public read shows them: no usage, no schedule, tool steps reduced", () => {
  const message = {
    id: "m",
    messageId: "m",
    todoId: "t",
    role: "assistant",
    content: "the reply",
    state: "PROCESSING",
    scheduledAt: null,
    usage: { costCents: 3, tokensIn: 10 },
    createdAt: 1,
    updatedAt: 2,
    blocks: [
      { id: "b", blockId: "b", todoId: "t", messageId: "m", type: "tool_call", content: { tool: "web", toolCallId: "c", input: { q: "secret" }, state: "done", output: "secret" }, actionable: false, checked: false, subTodoIds: ["s"], position: 0, createdAt: 1, updatedAt: 2 },
    ],
  };
  for (const type of ["message.created", "message.updated"] as const) {
    assert.deepEqual(publicSignal(event(type, message)), {
      room: "public:t",
      envelope: {
        type,
        id: "e1",
        at: 5,
        todoId: "t",
        data: {
          id: "m",
          messageId: "m",
          role: "assistant",
          content: "the reply",
          state: "PROCESSING",
          createdAt: 1,
          blocks: [{ id: "b", blockId: "b", messageId: "m", type: "tool_call", content: { tool: "web", state: "done" }, actionable: false, checked: false, position: 0 }],
        },
      },
      ends: false,
    });
  }
});

test("a user message reaches a public todo's viewers without its author: a public reader learns no user id", () => {
  const message = { id: "m", messageId: "m", todoId: "t", role: "user", authorId: "u-editor", content: "please", state: "PENDING", scheduledAt: null, usage: null, createdAt: 1, updatedAt: 2, blocks: [] };
  for (const type of ["message.created", "message.updated"] as const) {
    const signal = publicSignal(event(type, message));
    assert.deepEqual(signal?.envelope.data, { id: "m", messageId: "m", role: "user", content: "please", state: "PENDING", createdAt: 1, blocks: [] });
    assert.ok(!JSON.stringify(signal).includes("u-editor"), type);
  }
});

test("the reply's deltas stream to a public todo's viewers: the text and where it goes, nothing else", () => {
  assert.deepEqual(publicSignal(event("message.delta", { messageId: "m", delta: "wor", offset: 4, extra: "x" })), {
    room: "public:t",
    envelope: { type: "message.delta", id: "e1", at: 5, todoId: "t", data: { messageId: "m", delta: "wor", offset: 4 } },
    ends: false,
  });
});

test("system and tool messages, project events and other users' events send nothing", () => {
  assert.equal(publicSignal(event("message.created", { id: "m", role: "system", content: "$ ls\\nsecret.txt", state: "DONE", createdAt: 1 })), null);
  assert.equal(publicSignal(event("message.updated", { id: "m", role: "system", content: "x", state: "DONE", createdAt: 1 })), null);
  assert.equal(publicSignal(event("message.created", { id: "m", role: "tool", content: "x", state: "DONE", createdAt: 1 })), null);
  assert.equal(publicSignal(event("project.updated", { action: "updated" }, { projectId: "p", toPublic: true })), null);
  assert.equal(publicSignal(event("device.online", { deviceId: "d" }, { userId: "u" })), null);
});

test("a private todo's events send nothing to its public room: no emit, no PUBLISH through the Redis adapter", () => {
  const message = { id: "m", role: "assistant", content: "x", state: "DONE", createdAt: 1, blocks: [] };
  for (const toPublic of [false, undefined])
    for (const [type, data] of [
      ["todo.updated", { isPublic: false, content: "c" }],
      ["todo.status", { status: "READY" }],
      ["todo.deleted", { todoId: "t" }],
      ["block.updated", {}],
      ["message.created", message],
      ["message.updated", message],
      ["message.delta", { messageId: "m", delta: "d", offset: 0 }],
    ] as const)
      assert.equal(publicSignal(event(type, data, { projectId: "p", todoId: "t", toPublic })), null, `${type} ${toPublic}`);
});

test("made private or deleted: the signal is the last the viewers hear", () => {
  assert.equal(publicSignal(event("todo.updated", { isPublic: false }))?.ends, true);
  assert.equal(publicSignal(event("todo.updated", { isPublic: true }))?.ends, false);
  assert.equal(publicSignal(event("todo.deleted", { todoId: "t" }))?.ends, true);
});
