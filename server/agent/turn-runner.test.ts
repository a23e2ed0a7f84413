import { test } from "node:test";
import assert from "node:assert/strict";
import type { AppEvent } from "../realtime/bus.ts";
import { LocalProvider } from "./providers/local.ts";
import { TURN_LOST_TWICE, TurnRunner, type RunnerOptions } from "./turn-runner.ts";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { AgentProvider } from "./provider.ts";
import { scriptedProvider } from "./testing/scripted-model.ts";
import { createTestUser, createWaitingTodo, suiteTestRuntime } from "../testing/runtime.ts";
import { changeTodo, setStatus } from "../services/todos/lifecycle.ts";
import { signalTurn } from "./turn-signals.ts";

const t = suiteTestRuntime({ setup });
const events: AppEvent[] = [];
function setup() {
  t.bus.subscribe((e) => events.push(e));
}

async function runningTodo(content: string) {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Agent" } });
  return createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, content);
}

test("a turn streams deltas, stores the reply with usage and checklist blocks, and ends READY", async () => {
  const todo = await runningTodo("Trip:\n- passport\n- tickets\n- charger");
  t.runtime.agent.start(todo.id);
  await t.runtime.agent.idle();
  const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, include: { messages: { orderBy: { seq: "asc" }, include: { blocks: { orderBy: { position: "asc" } } } } } });
  assert.equal(after.status, "READY");
  const [user, reply] = after.messages;
  assert.equal(user!.state, "DONE");
  assert.equal(reply!.role, "assistant");
  assert.equal(reply!.state, "DONE");
  assert.deepEqual(reply!.blocks.map((b) => [b.type, b.actionable, (b.content as { text: string }).text]), [
    ["checklist_item", true, "passport"],
    ["checklist_item", true, "tickets"],
    ["checklist_item", true, "charger"],
  ]);
  const usage = reply!.usage as { tokensIn: number; tokensOut: number; costCents: number; durationMs: number };
  assert.ok(usage.tokensIn > 0 && usage.tokensOut > 0 && usage.durationMs >= 0);
  // The local agent's price: a cent per 100 words read and written, at least one (billing charges it).
  assert.equal(usage.costCents, Math.max(1, Math.ceil((usage.tokensIn + usage.tokensOut) / 100)));
  const mine = events.filter((e) => e.todoId === todo.id);
  const deltas = mine.filter((e) => e.type === "message.delta").map((e) => (e.data as { delta: string }).delta);
  assert.equal(deltas.join(""), reply!.content);
  assert.deepEqual(
    mine.filter((e) => e.type === "todo.status").map((e) => e.data),
    [{ status: "READY", previous: "RUNNING" }],
  );
  assert.equal(mine.filter((e) => e.type === "block.updated").length, 3);
  // The reply's last event carries it whole, its blocks included (built from what the end wrote, not read back).
  const updated = mine.filter((e) => e.type === "message.updated").at(-1)!.data as { state: string; content: string; blocks: { id: string; position: number }[] };
  assert.deepEqual([updated.state, updated.content], ["DONE", reply!.content]);
  assert.deepEqual(
    updated.blocks.map((b) => [b.id, b.position]),
    reply!.blocks.map((b) => [b.id, b.position]),
  );
});

test("every message waiting for a turn is taken by it and answered in the chat's order", async () => {
  const todo = await runningTodo("- alpha");
  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "- beta", state: "PENDING" } });
  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "- gamma", state: "PENDING" } });
  t.runtime.agent.start(todo.id);
  await t.runtime.agent.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" }, include: { blocks: { orderBy: { position: "asc" } } } });
  assert.deepEqual(
    reply.blocks.map((b) => (b.content as { text: string }).text),
    ["alpha", "beta", "gamma"],
  );
  assert.equal(await t.prisma.message.count({ where: { todoId: todo.id, role: "user", state: "DONE" } }), 3);
});

test("a todo that is not RUNNING is left alone; input that arrives during a turn gets its own turn", async () => {
  const idle = await runningTodo("nothing");
  await t.prisma.todo.update({ where: { id: idle.id }, data: { status: "PAUSED" } });
  t.runtime.agent.start(idle.id);
  await t.runtime.agent.idle();
  assert.equal(await t.prisma.message.count({ where: { todoId: idle.id, role: "assistant" } }), 0);

  // A slower agent, so the second message surely arrives while the first turn streams.
  const agent = new TurnRunner({ providers: { local: new LocalProvider(30) }, defaultProvider: "local", maxConcurrent: 4, maxPerUser: 4 });
  const busy = await runningTodo("first");
  agent.start(busy.id);
  while ((await t.prisma.message.count({ where: { todoId: busy.id, role: "assistant" } })) === 0) await new Promise((r) => setTimeout(r, 5));
  await t.prisma.message.create({ data: { todoId: busy.id, role: "user", content: "second", state: "PENDING" } });
  agent.start(busy.id); // already running here: looked at again when the turn ends
  await agent.idle();
  const replies = await t.prisma.message.findMany({ where: { todoId: busy.id, role: "assistant" } });
  assert.equal(replies.length, 2);
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: busy.id } })).status, "READY");
});

function fakeProvider(opts: { pieces?: string[]; failAfter?: number; stepMs?: number; seen?: LanguageModelV3CallOptions[] } = {}): AgentProvider {
  return scriptedProvider([{ text: opts.pieces ?? ["Hello ", "there ", "friend."], failAfter: opts.failAfter }], { stepMs: opts.stepMs, seen: opts.seen });
}

function runnerWith(provider: AgentProvider, extra: Partial<RunnerOptions> = {}) {
  // persistMs 0: every piece is written as it comes (the crash tests below look for stored text mid-turn).
  return new TurnRunner({ providers: { fake: provider }, defaultProvider: "fake", maxConcurrent: 8, maxPerUser: 8, flushMs: 0, persistMs: 0, ...extra });
}

test("a provider error ends the turn in ERROR with the reason; the partial reply is kept and marked", async () => {
  const todo = await runningTodo("go");
  const runner = runnerWith(fakeProvider({ failAfter: 2 }));
  runner.start(todo.id);
  await runner.idle();
  const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, include: { messages: { where: { role: "assistant" } } } });
  assert.equal(after.status, "ERROR");
  assert.equal((after.metadata as { error: string }).error, "Model endpoint answered 500: overloaded");
  assert.equal(after.messages[0]!.state, "ERROR");
  assert.equal(after.messages[0]!.content, "Hello there ");
  assert.ok(events.some((e) => e.todoId === todo.id && e.type === "todo.status" && (e.data as { status: string }).status === "ERROR"));
});

test("a provider error keeps the text it sent that was not written yet (between two steps)", async () => {
  const todo = await runningTodo("go slowly");
  const runner = runnerWith(fakeProvider({ failAfter: 2 }), { flushMs: 60_000 });
  runner.start(todo.id);
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(reply.state, "ERROR");
  assert.equal(reply.content, "Hello there ");
});

test("usage and cost come from the provider; a pending context summary is sent first, then marked used", async () => {
  const todo = await runningTodo("with summary");
  await t.prisma.todo.update({ where: { id: todo.id }, data: { workflow: { contextSummary: "We agreed on blue." } } });
  const seen: LanguageModelV3CallOptions[] = [];
  const runner = runnerWith(fakeProvider({ seen }));
  runner.start(todo.id);
  await runner.idle();
  const prompt = seen[0]!.prompt;
  assert.equal(prompt[0]!.role, "system");
  assert.match(String(prompt[0]!.content), /We agreed on blue\./);
  assert.deepEqual(prompt.at(-1), { role: "user", content: [{ type: "text", text: "with summary" }], providerOptions: undefined });
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.deepEqual({ ...(reply.usage as object), durationMs: 0 }, { provider: "fake", model: "fake-model", tokensIn: 11, tokensOut: 22, costCents: 22, durationMs: 0 });
  const w = (await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).workflow as { contextSummaryUsed: boolean };
  assert.equal(w.contextSummaryUsed, true);
});

test("at most maxPerUser turns of one user run at once; the rest wait their turn", async () => {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Limits" } });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, `t${i}`)).id);
  const runner = runnerWith(fakeProvider({ stepMs: 20 }), { maxPerUser: 2 });
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, runner.load.active)), 2);
  ids.forEach((id) => runner.start(id));
  await runner.idle();
  clearInterval(timer);
  assert.equal(peak, 2);
  assert.equal(await t.prisma.todo.count({ where: { id: { in: ids }, status: "READY" } }), 5);
});

test("a turn whose process died is taken over after its lease ran out, and resumed where it stopped", async () => {
  const todo = await runningTodo("resume me");
  const pieces = ["one ", "two ", "three ", "four."];
  const first = runnerWith(fakeProvider({ pieces, stepMs: 30 }), { leaseMs: 200 });
  first.start(todo.id);
  while (!(await t.prisma.message.findFirst({ where: { todoId: todo.id, role: "assistant", content: { not: "" } } }))) await new Promise((r) => setTimeout(r, 5));
  await first.stop(); // a clean stop releases the lease; a crash would not, as written here:
  const mid = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(mid.state, "PROCESSING");
  const stopped = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
  assert.deepEqual([stopped.leaseOwner, stopped.leaseUntil], [null, null]);
  // The dead process's lease runs a minute ahead, so however slow this machine is, it is still
  // held while the second runner first looks; then it runs out (set in the past, not slept on).
  await t.prisma.todo.update({ where: { id: todo.id }, data: { leaseOwner: "dead-process", leaseUntil: new Date(Date.now() + 60_000) } });

  const second = runnerWith(fakeProvider({ pieces }), { leaseMs: 200 });
  second.start(todo.id); // lease still held by the dead process: nothing happens yet
  await second.idle();
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "RUNNING");
  await t.prisma.todo.update({ where: { id: todo.id }, data: { leaseUntil: new Date(Date.now() - 1) } });
  second.start(todo.id);
  await second.idle();
  const done = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(done.content, "one two three four.");
  assert.equal(done.state, "DONE");
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "READY");
});

test("a turn taken over once already is not taken over again: a second death ends it in ERROR", async () => {
  const todo = await runningTodo("crashes twice");
  const first = runnerWith(fakeProvider({ stepMs: 30 }), { leaseMs: 200 });
  first.start(todo.id);
  while (!(await t.prisma.message.findFirst({ where: { todoId: todo.id, role: "assistant", content: { not: "" } } }))) await new Promise((r) => setTimeout(r, 5));
  await first.stop();
  const { workflow } = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
  const w = workflow as { currentTurn: { recoveries?: number } };
  assert.equal(w.currentTurn.recoveries, undefined, "started normally: no recovery yet");
  // As a process that died after it had already taken this turn over once would leave it:
  await t.prisma.todo.update({ where: { id: todo.id }, data: { workflow: { ...w, currentTurn: { ...w.currentTurn, recoveries: 1 } }, leaseOwner: "dead-process", leaseUntil: new Date(Date.now() - 1) } });
  const second = runnerWith(fakeProvider());
  second.start(todo.id);
  await second.idle();
  const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, include: { messages: { where: { role: "assistant" } } } });
  assert.equal(after.status, "ERROR");
  assert.equal((after.metadata as { error: string }).error, TURN_LOST_TWICE);
  assert.equal(after.messages[0]!.state, "ERROR");
  assert.equal(after.messages[0]!.content, "Hello ", "the partial reply is kept");
});

test("the per-user limit holds across processes: two runners on one database never run more than maxPerUser of a user's turns", async () => {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Shared limit" } });
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push((await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, `p${i}`)).id);
  // Each runner alone would allow 2 of this user's turns; together they must still allow only 2.
  const a = runnerWith(fakeProvider({ stepMs: 15 }), { maxPerUser: 2, busyRetryMs: 10 });
  const b = runnerWith(fakeProvider({ stepMs: 15 }), { maxPerUser: 2, busyRetryMs: 10 });
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const live = await t.prisma.todo.findMany({ where: { id: { in: ids }, status: "RUNNING" }, select: { leaseUntil: true } });
      const now = Date.now();
      peak = Math.max(peak, live.filter((r) => (r.leaseUntil?.getTime() ?? 0) > now).length);
      await new Promise((r) => setTimeout(r, 3));
    }
  })();
  ids.forEach((id, i) => (i % 2 ? b : a).start(id));
  const deadline = Date.now() + 20_000;
  while ((await t.prisma.todo.count({ where: { id: { in: ids }, status: "READY" } })) < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  sampling = false;
  await sampler;
  await Promise.all([a.idle(), b.idle()]);
  assert.equal(await t.prisma.todo.count({ where: { id: { in: ids }, status: "READY" } }), 6);
  for (const id of ids) assert.equal(await t.prisma.message.count({ where: { todoId: id, role: "assistant" } }), 1);
  assert.equal(peak, 2, `peak of live turns was ${peak}`);
});

// ── Coalesced writes and signals (server/agent/reply-writer.ts, server/agent/turn-signals.ts) ──

const PIECES = Array.from({ length: 200 }, (_, i) => `w${i} `);

/** The deltas published for the todo's reply so far, joined. */
const streamed = (todoId: string) =>
  events
    .filter((e) => e.todoId === todoId && e.type === "message.delta")
    .map((e) => e.data as { delta: string })
    .map((d) => d.delta)
    .join("");

async function untilStreamed(todoId: string, pieces: number) {
  while (streamed(todoId).split(" ").length <= pieces) await new Promise((r) => setTimeout(r, 5));
}

/** A status change through the lifecycle, as todo_updateStatus makes it. */
async function moveTo(todoId: string, to: "PAUSED" | "CANCELLED") {
  await changeTodo(todoId, (tx, current, fx) => setStatus(tx, current, fx, to));
}

test("pause reaches a streaming turn as a signal from the lifecycle: it stops at once and keeps every streamed piece", async () => {
  const todo = await runningTodo("pause me");
  // Nothing is written while it streams (persistMs of a minute): the turn cannot learn of the pause from the database.
  const runner = runnerWith(fakeProvider({ pieces: PIECES, stepMs: 5 }), { persistMs: 60_000 });
  runner.start(todo.id);
  await untilStreamed(todo.id, 3);
  assert.equal((await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } })).content, "", "nothing written yet");
  await moveTo(todo.id, "PAUSED");
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(reply.state, "PROCESSING", "kept for the resume");
  assert.equal(reply.content, streamed(todo.id), "every delta sent is stored");
  assert.ok(reply.content.split(" ").length < PIECES.length / 2, "the model call was stopped early");
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "PAUSED");
});

test("cancel reaches a streaming turn as a signal: the reply ends DONE with what was streamed", async () => {
  const todo = await runningTodo("cancel me");
  const runner = runnerWith(fakeProvider({ pieces: PIECES, stepMs: 5 }), { persistMs: 60_000 });
  runner.start(todo.id);
  await untilStreamed(todo.id, 3);
  await moveTo(todo.id, "CANCELLED");
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(reply.state, "DONE");
  assert.equal(reply.content, streamed(todo.id));
  assert.ok(reply.content.split(" ").length < PIECES.length / 2);
  assert.equal((reply.usage as { interrupted?: boolean }).interrupted, true);
});

test("a flush signal (todo_subscribe) writes the streamed reply now; a crash after it loses nothing before it", async () => {
  const todo = await runningTodo("flush me");
  const runner = runnerWith(fakeProvider({ pieces: PIECES, stepMs: 5 }), { persistMs: 60_000 });
  runner.start(todo.id);
  await untilStreamed(todo.id, 3);
  const before = streamed(todo.id);
  await signalTurn(todo.id, "flush");
  const stored = (await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } })).content;
  assert.ok(stored.startsWith(before) && stored.length >= before.length, `stored ${JSON.stringify(stored)} after streaming ${JSON.stringify(before)}`);
  assert.ok(streamed(todo.id).startsWith(stored), "never ahead of the deltas");
  await moveTo(todo.id, "CANCELLED");
  await runner.idle();
});

test("without a signal (a status written by a process the bus does not reach), the turn stops at its next coalesced write", async () => {
  const todo = await runningTodo("no signal");
  const runner = runnerWith(fakeProvider({ pieces: PIECES, stepMs: 5 }), { persistMs: 20 });
  runner.start(todo.id);
  await untilStreamed(todo.id, 3);
  await t.prisma.todo.update({ where: { id: todo.id }, data: { status: "PAUSED" } });
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(reply.state, "PROCESSING");
  assert.equal(reply.content, streamed(todo.id), "what it streamed before it noticed is kept");
  assert.ok(reply.content.split(" ").length < PIECES.length);
});

test("a stop signal that comes after a resume does not end the turn: it carries on from what it stored", async () => {
  const todo = await runningTodo("late signal");
  const pieces = PIECES.slice(0, 30);
  const runner = runnerWith(fakeProvider({ pieces, stepMs: 5 }), { persistMs: 60_000 });
  runner.start(todo.id);
  await untilStreamed(todo.id, 3);
  await signalTurn(todo.id, "stop"); // as if a pause and a resume had both committed before it arrived
  await runner.idle();
  const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, include: { messages: { where: { role: "assistant" } } } });
  assert.equal(after.status, "READY");
  assert.equal(after.messages.length, 1);
  assert.equal(after.messages[0]!.content, pieces.join(""));
  assert.equal(after.messages[0]!.state, "DONE");
});
