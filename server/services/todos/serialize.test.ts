import { test } from "node:test";
import assert from "node:assert/strict";
import { ZMessage } from "../../../lib/schemas/todos.ts";
import { publicMessageOf, toMessage, toPublicTodo } from "./serialize.ts";

const row = (usage: unknown) => ({
  id: "m1",
  todoId: "t1",
  role: "assistant" as const,
  authorId: null,
  content: "hi",
  state: "DONE" as const,
  scheduledAt: null,
  usage,
  createdAt: new Date(1),
  updatedAt: new Date(2),
});

test("Message.usage keeps the typed fields the agent records, drops the rest, and always fits its schema", () => {
  const done = { provider: "openai", model: "gpt-4o-mini", tokensIn: 12, tokensOut: 34, costCents: 0.5, durationMs: 812 };
  assert.deepEqual(toMessage(row(done)).usage, done);
  assert.deepEqual(toMessage(row({ provider: "local", tokensIn: 1, tokensOut: 2, costCents: 0, durationMs: 5, interrupted: true })).usage, {
    provider: "local",
    tokensIn: 1,
    tokensOut: 2,
    costCents: 0,
    durationMs: 5,
    interrupted: true,
  });
  assert.deepEqual(toMessage(row({ error: "Model endpoint answered 500" })).usage, { error: "Model endpoint answered 500" });
  // A stored value of another shape never fails the response: wrong types and unknown keys are left out.
  assert.deepEqual(toMessage(row({ tokensIn: "12", secret: "x", durationMs: 3 })).usage, { durationMs: 3 });
  for (const odd of [null, undefined, "text", 5, [1, 2]]) assert.equal(toMessage(row(odd)).usage, null);
  for (const usage of [done, { tokensIn: "12", secret: "x" }, [1], "x"]) assert.ok(ZMessage.safeParse(toMessage(row(usage))).success);
});

test("Message.authorId: a user message names who wrote it, the agent's none; the public views never carry it", () => {
  const said = { ...row(null), id: "m2", role: "user" as const, authorId: "u-editor" };
  assert.equal(toMessage(said).authorId, "u-editor");
  assert.equal(toMessage(row(null)).authorId, null);
  assert.ok(ZMessage.safeParse(toMessage(said)).success);
  const todo = { id: "t1", content: "c", status: "READY" as const, createdAt: new Date(1), updatedAt: new Date(2) };
  const shown = toPublicTodo(todo, [said, row(null)], false, null);
  assert.ok(!JSON.stringify(shown).includes("u-editor"), "todo_getPublic");
  for (const m of shown.messages) assert.ok(!("authorId" in m));
  const live = publicMessageOf(toMessage(said));
  assert.ok(live && !("authorId" in live) && !JSON.stringify(live).includes("u-editor"), "the public room's events");
});

test("public blocks: a shown card is public with its renderer and data (not the project's card id); of tool steps and shell commands only how they went", () => {
  const block = (type: string, content: unknown) => ({ id: `b-${type}`, todoId: "t1", messageId: "m1", type, content, actionable: false, checked: false, subTodoIds: [], position: 0, createdAt: new Date(1), updatedAt: new Date(2) });
  const reply = {
    ...row(null),
    blocks: [
      block("show", { cardId: "card-secret-id", card: "Bar chart", title: "Sales", html: "<p>{{x}}</p>", data: { x: 1 } }),
      block("tool_call", { tool: "show", toolCallId: "c1", state: "done", input: { card: "Bar chart", html: "<p></p>" }, output: { cardId: "card-secret-id" } }),
      block("shell", { command: "rm -rf /", path: "/home/me", deviceName: "laptop", state: "done", exitCode: 0 }),
    ],
  };
  const todo = { id: "t1", content: "c", status: "READY" as const, createdAt: new Date(1), updatedAt: new Date(2) };
  const [show, step, shell] = toPublicTodo(todo, [reply], false, null).messages[0]!.blocks.map((b) => b.content);
  assert.deepEqual(show, { card: "Bar chart", title: "Sales", html: "<p>{{x}}</p>", data: { x: 1 } });
  assert.deepEqual(step, { tool: "show", state: "done" });
  assert.deepEqual(shell, { state: "done", exitCode: 0 });
  assert.ok(!JSON.stringify(toPublicTodo(todo, [reply], false, null)).includes("card-secret-id"));
});
