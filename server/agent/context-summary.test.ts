import { test } from "node:test";
import assert from "node:assert/strict";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createTestUser, createWaitingTodo, suiteTestRuntime } from "../testing/runtime.ts";
import { getWorkflow, updateWorkflow } from "../services/todos/extras.ts";
import { KEEP_RECENT, SUMMARY_PROMPT } from "./context-summary.ts";
import { scriptedProvider } from "./testing/scripted-model.ts";
import { TurnRunner } from "./turn-runner.ts";

// Long conversations: past a share of the model's window the older turns become the workflow's
// context summary, which the turn uses (and marks used), and later turns keep using.
const t = suiteTestRuntime();

const textOf = (m: LanguageModelV3CallOptions["prompt"][number]) => (typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join(""));

test("a conversation longer than the model's window is summarised, the summary used in that turn and the next, and shown in todo_getWorkflow", async () => {
  const streamed: LanguageModelV3CallOptions[] = [];
  const summarised: LanguageModelV3CallOptions[] = [];
  const provider = scriptedProvider([{ text: ["Noted."] }], {
    seen: streamed,
    contextWindow: 1024,
    summary: (options) => {
      summarised.push(options);
      return "The user planned a garden: tomatoes chosen, blue pots.";
    },
  });
  const runner = new TurnRunner({ providers: { fake: provider }, defaultProvider: "fake", maxConcurrent: 4, maxPerUser: 4, flushMs: 0 });
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Long" } });
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "Where were we?");
  // An old conversation of about 2 000 tokens, before the waiting message.
  const pending = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, state: "PENDING" } });
  await t.prisma.message.delete({ where: { id: pending.id } });
  for (let i = 0; i < 10; i++) {
    await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: `OLD-${i} ${"garden words ".repeat(30)}`, state: "DONE" } });
    await t.prisma.message.create({ data: { todoId: todo.id, role: "assistant", content: `reply ${i} ${"more words ".repeat(30)}`, state: "DONE" } });
  }
  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "Where were we?", state: "PENDING" } });

  // The todo's viewers hear each change of what the agent keeps: the summary written, then used.
  const workflowEvents: unknown[] = [];
  const stop = t.bus.subscribe((e) => void (e.type === "todo.workflow" && e.todoId === todo.id && workflowEvents.push([e.projectId, e.data])));
  runner.start(todo.id);
  await runner.idle();
  const summaryText = "The user planned a garden: tomatoes chosen, blue pots.";
  assert.deepEqual(workflowEvents, [
    [project.id, { todoId: todo.id, contextSummary: summaryText, contextSummaryUsed: false, turn: 1, state: "running" }],
    [project.id, { todoId: todo.id, contextSummary: summaryText, contextSummaryUsed: true, turn: 1, state: "idle" }],
  ]);
  assert.equal(summarised.length, 1);
  assert.equal(summarised[0]!.prompt[0]!.role, "system");
  assert.equal(textOf(summarised[0]!.prompt[0]!), SUMMARY_PROMPT);
  // It read the older messages (the newest part of them that fits the window), not the kept ones.
  assert.match(textOf(summarised[0]!.prompt[1]!), /OLD-7/);
  assert.ok(!textOf(summarised[0]!.prompt[1]!).includes("Where were we?"));
  // The turn sent the summary (as system text) and only the newest messages in full.
  const first = streamed[0]!.prompt;
  assert.match(textOf(first[0]!), /tomatoes chosen, blue pots/);
  const rest = first.filter((m) => m.role !== "system");
  assert.equal(rest.length, KEEP_RECENT);
  assert.ok(!rest.some((m) => textOf(m).includes("OLD-0")));
  assert.equal(textOf(rest.at(-1)!), "Where were we?");

  const owner = { credential: "apiKey" as const, userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const w = await getWorkflow(owner, todo.id);
  assert.deepEqual([w.contextSummary, w.contextSummaryUsed], ["The user planned a garden: tomatoes chosen, blue pots.", true]);

  // The next turn: short now, so no new summary, and the summary still stands in for the old turns.
  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "And the pots?", state: "PENDING" } });
  await t.prisma.todo.update({ where: { id: todo.id }, data: { status: "RUNNING" } });
  runner.start(todo.id);
  await runner.idle();
  assert.equal(summarised.length, 1);
  const second = streamed[1]!.prompt;
  assert.match(textOf(second[0]!), /tomatoes chosen/);
  assert.ok(!second.some((m) => textOf(m).includes("OLD-0")));
  assert.equal(textOf(second.at(-1)!), "And the pots?");
  // Nothing new to keep: no more workflow events.
  stop();
  assert.equal(workflowEvents.length, 2);

  // todo_updateWorkflow tells them too (a summary set by hand, or marked used).
  const updates: unknown[] = [];
  const stopUpdates = t.bus.subscribe((e) => void (e.type === "todo.workflow" && updates.push([e.todoId, e.data])));
  await updateWorkflow(owner, todo.id, { contextSummary: "By hand", contextSummaryUsed: false });
  stopUpdates();
  assert.deepEqual(updates, [[todo.id, { todoId: todo.id, contextSummary: "By hand", contextSummaryUsed: false, turn: 2, state: "idle" }]]);
});

test("a short conversation is not summarised", async () => {
  const summarised: LanguageModelV3CallOptions[] = [];
  const provider = scriptedProvider([{ text: ["Hi."] }], { contextWindow: 1024, summary: (o) => (summarised.push(o), "x") });
  const runner = new TurnRunner({ providers: { fake: provider }, defaultProvider: "fake", maxConcurrent: 4, maxPerUser: 4, flushMs: 0 });
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Short" } });
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "hello");
  runner.start(todo.id);
  await runner.idle();
  assert.equal(summarised.length, 0);
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "READY");
});

test("a summary edited while a turn runs is not marked used by that turn, which sent the old one: the next turn sends the edit", async () => {
  const streamed: LanguageModelV3CallOptions[] = [];
  let edit: Promise<unknown> | undefined;
  const user = await createTestUser(t.prisma);
  const owner = { credential: "apiKey" as const, userId: user.id, email: user.email, name: user.name, isAdmin: false };
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Edited" } });
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "Go on");
  await updateWorkflow(owner, todo.id, { contextSummary: "Old text", contextSummaryUsed: false });
  // The edit is made once the model has the prompt, and commits while the reply still streams.
  const provider = scriptedProvider(
    (_options, call) => {
      if (call === 0) edit = updateWorkflow(owner, todo.id, { contextSummary: "Corrected text", contextSummaryUsed: false });
      return { text: ["One ", "two ", "three."] };
    },
    { seen: streamed, stepMs: 100 },
  );
  const runner = new TurnRunner({ providers: { fake: provider }, defaultProvider: "fake", maxConcurrent: 4, maxPerUser: 4, flushMs: 0 });
  runner.start(todo.id);
  await runner.idle();
  await edit;
  assert.match(textOf(streamed[0]!.prompt[0]!), /Old text/);
  assert.deepEqual(await getWorkflow(owner, todo.id).then((w) => [w.contextSummary, w.contextSummaryUsed]), ["Corrected text", false]);

  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "And now?", state: "PENDING" } });
  await t.prisma.todo.update({ where: { id: todo.id }, data: { status: "RUNNING" } });
  runner.start(todo.id);
  await runner.idle();
  assert.match(textOf(streamed[1]!.prompt[0]!), /Corrected text/);
  assert.deepEqual(await getWorkflow(owner, todo.id).then((w) => [w.contextSummary, w.contextSummaryUsed]), ["Corrected text", true]);
});
