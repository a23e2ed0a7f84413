import { test } from "node:test";
import assert from "node:assert/strict";
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { AppEvent } from "../realtime/bus.ts";
import type { AgentRunner } from "./runner.ts";
import { createTestUser, createWaitingTodo, suiteTestRuntime } from "../testing/runtime.ts";
import { scriptedProvider, type ScriptedStep } from "./testing/scripted-model.ts";
import { TurnRunner } from "./turn-runner.ts";
import { embedNow } from "../services/search/embed-job.ts";
import type { AgentProvider } from "./provider.ts";

// The agent's tools, driven by scripted AI SDK models (MockLanguageModelV3): each call, its step
// block, and what it did through the services.
const t = suiteTestRuntime({ setup, teardown });
let original: AgentRunner;
const events: AppEvent[] = [];
function setup() {
  original = t.runtime.agent;
  t.bus.subscribe((e) => events.push(e));
}
function teardown() {
  t.runtime.agent = original;
}

/** A runner over `provider` that is also the runtime's agent (sub-todos the tools start run on it). */
function use(provider: AgentProvider): TurnRunner {
  const runner = new TurnRunner({ providers: { fake: provider }, defaultProvider: "fake", maxConcurrent: 16, maxPerUser: 8, flushMs: 0 });
  t.runtime.agent = runner;
  return runner;
}

async function ownTodo(content: string) {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Tools" } });
  return createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, content);
}

const lastUserText = (prompt: LanguageModelV3Prompt) => {
  const m = [...prompt].reverse().find((p) => p.role === "user");
  return m && Array.isArray(m.content) ? m.content.map((c) => (c.type === "text" ? c.text : "")).join("") : "";
};

const blocksOf = (messageId: string) => t.prisma.block.findMany({ where: { messageId }, orderBy: { position: "asc" } });

test("checklist: the model adds items; the call shows as a step block, then the items, and the turn goes on to its answer", async () => {
  const seen: LanguageModelV3CallOptions[] = [];
  const runner = use(scriptedProvider([{ toolCalls: [{ toolName: "checklist", input: { add: ["Book the venue", "Send invites"] } }], usage: [5, 7] }, { text: ["Here ", "is your plan."], usage: [9, 4] }], { tools: true, seen }));
  const todo = await ownTodo("Plan the party");
  runner.start(todo.id);
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(reply.state, "DONE");
  assert.equal(reply.content, "Here is your plan.");
  const blocks = await blocksOf(reply.id);
  assert.deepEqual(blocks.map((b) => [b.type, b.actionable, b.position]), [["tool_call", false, 0], ["checklist_item", true, 1], ["checklist_item", true, 2]]);
  assert.deepEqual(blocks.slice(1).map((b) => (b.content as { text: string }).text), ["Book the venue", "Send invites"]);
  const step = blocks[0]!.content as { tool: string; state: string; input: unknown; output: { added: { blockId: string }[] } };
  assert.equal(step.tool, "checklist");
  assert.equal(step.state, "done");
  assert.deepEqual(step.input, { add: ["Book the venue", "Send invites"] });
  assert.deepEqual(step.output.added.map((a) => a.blockId), [blocks[1]!.id, blocks[2]!.id]);
  // The tools were offered, and the second call saw the first call's result.
  assert.ok(seen[0]!.tools?.some((tool) => tool.name === "checklist"));
  assert.ok(seen[1]!.prompt.some((m) => m.role === "tool"));
  // Usage per model call and in total; the cost is the provider's on the total.
  const usage = reply.usage as { tokensIn: number; tokensOut: number; steps: { tokensIn: number; tokensOut: number }[]; costCents: number };
  assert.deepEqual(usage.steps, [{ tokensIn: 5, tokensOut: 7 }, { tokensIn: 9, tokensOut: 4 }]);
  assert.deepEqual([usage.tokensIn, usage.tokensOut, usage.costCents], [14, 11, 11]);
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "READY");
  const updates = events.filter((e) => e.todoId === todo.id && e.type === "block.updated").map((e) => (e.data as { type: string; content: { state?: string } }));
  assert.deepEqual(updates.filter((b) => b.type === "tool_call").map((b) => b.content.state), ["running", "done"]);
});

test("checklist updates go through the service's access checks: another user's block is refused, the step shows the error", async () => {
  const stranger = await ownTodo("not yours");
  const foreign = await t.prisma.message.create({ data: { todoId: stranger.id, role: "assistant", content: "x", state: "DONE" } });
  const block = await t.prisma.block.create({ data: { todoId: stranger.id, messageId: foreign.id, type: "checklist_item", actionable: true, content: { text: "theirs" } } });
  const runner = use(scriptedProvider([{ toolCalls: [{ toolName: "checklist", input: { update: [{ blockId: block.id, checked: true, text: "mine now" }] } }] }, { text: ["Could not."] }], { tools: true }));
  const todo = await ownTodo("Check theirs");
  runner.start(todo.id);
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  const [step] = await blocksOf(reply.id);
  assert.equal((step!.content as { state: string }).state, "error");
  assert.match(JSON.stringify(step!.content), /Block not found/i);
  const untouched = await t.prisma.block.findUniqueOrThrow({ where: { id: block.id } });
  assert.deepEqual([untouched.checked, (untouched.content as { text: string }).text], [false, "theirs"]);
  assert.equal(reply.content, "Could not.");
});

test("schedule_followup schedules a message on the todo through the schedule-message service; the todo ends SCHEDULED", async () => {
  const runner = use(scriptedProvider([{ toolCalls: [{ toolName: "schedule_followup", input: { message: "Check whether the invites went out", inMinutes: 90 } }] }, { text: ["I will look again later."] }], { tools: true }));
  const todo = await ownTodo("Remind me");
  const before = Date.now();
  runner.start(todo.id);
  await runner.idle();
  const scheduled = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, state: "SCHEDULED" } });
  assert.equal(scheduled.content, "Check whether the invites went out");
  // The agent wrote it, not the owner: no author (Message.authorId).
  assert.equal(scheduled.authorId, null);
  assert.ok(scheduled.scheduledAt!.getTime() >= before + 90 * 60_000 - 1000);
  const job = await t.prisma.job.findFirst({ where: { name: "message.fire", key: { startsWith: scheduled.id } } });
  assert.ok(job, "the fire job is queued");
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "SCHEDULED");
});

/** Parent spawns three children (one named twice in the links would be a duplicate), each child answers, the parent sums up. */
function family(opts: { childStepMs?: number } = {}): AgentProvider {
  return scriptedProvider(
    (options): ScriptedStep => {
      const last = lastUserText(options.prompt);
      if (last.startsWith("Results of the sub-todos")) return { text: ["All three ", "are done."] };
      if (last.startsWith("child:")) return { text: [`Answer to ${last.slice(6)}`, "."], ...(opts.childStepMs ? {} : {}) };
      return { toolCalls: [{ toolName: "spawn_subtodos", input: { todos: [{ content: "child:A" }, { content: "child:B" }, { content: "child:C" }] } }] };
    },
    { tools: true, stepMs: opts.childStepMs },
  );
}

test("spawn_subtodos: three sub-todos in the same project, linked once to the calling block; the parent waits, then continues with their results", async () => {
  const runner = use(family());
  const todo = await ownTodo("Research three things");
  runner.start(todo.id);
  // The parent's turn ends with the call; the children run, and the last to settle starts the parent again.
  for (;;) {
    await runner.idle();
    const now = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
    if (now.status !== "RUNNING") break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const parent = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, include: { messages: { orderBy: { seq: "asc" }, include: { blocks: true } } } });
  assert.equal(parent.status, "READY");
  const [first, results, last] = parent.messages.filter((m) => m.role !== "user");
  const step = first!.blocks.find((b) => b.type === "tool_call")!;
  assert.equal(step.subTodoIds.length, 3);
  assert.equal(new Set(step.subTodoIds).size, 3, "no duplicates");
  const children = await t.prisma.todo.findMany({ where: { id: { in: step.subTodoIds } }, include: { messages: { where: { role: "assistant" } } } });
  assert.ok(children.every((c) => c.projectId === todo.projectId && c.userId === todo.userId && c.status === "READY"));
  // A child's first message is the agent's task for it: no author.
  assert.deepEqual(await t.prisma.message.count({ where: { todoId: { in: step.subTodoIds }, role: "user", authorId: { not: null } } }), 0);
  assert.equal(await t.prisma.message.count({ where: { todoId: { in: step.subTodoIds }, role: "user" } }), 3);
  assert.deepEqual(children.map((c) => c.messages[0]!.content).sort(), ["Answer to A.", "Answer to B.", "Answer to C."]);
  assert.equal(results!.role, "system");
  for (const letter of ["A", "B", "C"]) assert.match(results!.content, new RegExp(`Answer to ${letter}\\.`));
  assert.equal(last!.role, "assistant");
  assert.equal(last!.content, "All three are done.");
  const step2 = (step.content as { output: { subTodoIds: string[] } }).output;
  assert.deepEqual(step2.subTodoIds, step.subTodoIds);
  assert.equal((parent.workflow as { waitingFor?: unknown }).waitingFor, undefined);
});

test("cancelling a parent that waits for its sub-todos cancels them", async () => {
  const slow = scriptedProvider(
    (options): ScriptedStep => {
      const last = lastUserText(options.prompt);
      if (last.startsWith("child:")) return { text: Array.from({ length: 200 }, () => "slow ") };
      return { toolCalls: [{ toolName: "spawn_subtodos", input: { todos: [{ content: "child:1" }, { content: "child:2" }] } }] };
    },
    { tools: true, stepMs: 20 },
  );
  const runner = use(slow);
  const todo = await ownTodo("Wait for the slow ones");
  runner.start(todo.id);
  let ids: string[] = [];
  while (ids.length < 2) {
    const w = (await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).workflow as { waitingFor?: string[] };
    ids = w.waitingFor ?? [];
    await new Promise((r) => setTimeout(r, 10));
  }
  const { updateStatus } = await import("../services/todos/status.ts");
  const owner = await t.prisma.user.findUniqueOrThrow({ where: { id: todo.userId } });
  await updateStatus({ credential: "apiKey", userId: owner.id, email: owner.email, name: owner.name, isAdmin: false }, todo.id, "cancel");
  await runner.idle();
  const children = await t.prisma.todo.findMany({ where: { id: { in: ids } } });
  assert.deepEqual(children.map((c) => c.status), ["CANCELLED", "CANCELLED"]);
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "CANCELLED");
});

test("sub-todos nest at most two deep: a todo at that depth is not offered spawn_subtodos", async () => {
  const seen: LanguageModelV3CallOptions[] = [];
  const runner = use(scriptedProvider([{ text: ["ok"] }], { tools: true, seen }));
  const todo = await ownTodo("deep");
  await t.prisma.todo.update({ where: { id: todo.id }, data: { workflow: { spawnDepth: 2, parentTodoId: "elsewhere" } } });
  runner.start(todo.id);
  await runner.idle();
  const names = (seen[0]!.tools ?? []).map((tool) => tool.name).sort();
  assert.deepEqual(names, ["checklist", "recall", "remember", "schedule_followup", "show"]);
});

const BARS = "<h1>{{title}}</h1><div id=bars></div><script>document.getElementById('bars').textContent = cardData.rows.length + ' rows'</script>";

test("show: the first call defines the project's card and shows data with it; a later call reuses it by name; the block keeps the renderer it was shown with", async () => {
  const runner = use(
    scriptedProvider(
      [
        { toolCalls: [{ toolName: "show", input: { card: "Bar chart", html: BARS, description: "Bars per row", title: "Sales", data: { title: "Q1", rows: [{ label: "Jan", value: 3 }] } } }] },
        { toolCalls: [{ toolName: "show", input: { card: "Bar chart", data: { title: "Q2", rows: [] } } }] },
        { toolCalls: [{ toolName: "show", input: { card: "Bar chart", html: "<p>{{title}}</p>", data: { title: "Q3" } } }] },
        { text: ["Shown."] },
      ],
      { tools: true },
    ),
  );
  const todo = await ownTodo("Chart the sales");
  runner.start(todo.id);
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(reply.content, "Shown.");
  const blocks = await blocksOf(reply.id);
  const shows = blocks.filter((b) => b.type === "show").map((b) => b.content as { cardId: string; card: string; title: string | null; html: string; data: unknown });
  assert.equal(shows.length, 3);
  const cards = await t.prisma.rendererCard.findMany({ where: { projectId: todo.projectId } });
  assert.equal(cards.length, 1, "one card of that name in the project");
  assert.deepEqual([cards[0]!.name, cards[0]!.description, cards[0]!.html], ["Bar chart", "Bars per row", "<p>{{title}}</p>"]);
  assert.deepEqual(shows.map((s) => [s.cardId, s.card, s.title]), [[cards[0]!.id, "Bar chart", "Sales"], [cards[0]!.id, "Bar chart", null], [cards[0]!.id, "Bar chart", null]]);
  assert.deepEqual(shows.map((s) => s.html), [BARS, BARS, "<p>{{title}}</p>"]);
  assert.deepEqual(shows[1]!.data, { title: "Q2", rows: [] });
  const outputs = blocks.filter((b) => b.type === "tool_call").map((b) => (b.content as { output: { defined: string | null } }).output.defined);
  assert.deepEqual(outputs, ["created", null, "replaced"]);
  assert.ok(events.some((e) => e.type === "project.updated" && e.projectId === todo.projectId && (e.data as { action: string }).action === "card"));
});

test("show refuses an unknown card without html, and data too large: the step shows why and no block or card is made", async () => {
  const big = { rows: "x".repeat(40_000) };
  const runner = use(
    scriptedProvider([{ toolCalls: [{ toolName: "show", input: { card: "Nothing yet", data: { a: 1 } } }, { toolName: "show", input: { card: "Big", html: "<p></p>", data: big } }] }, { text: ["Could not."] }], { tools: true }),
  );
  const todo = await ownTodo("Show nothing");
  runner.start(todo.id);
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  const blocks = await blocksOf(reply.id);
  assert.deepEqual(blocks.map((b) => b.type), ["tool_call", "tool_call"]);
  const steps = blocks.map((b) => b.content as { state: string; output: unknown });
  assert.deepEqual(steps.map((s) => s.state), ["error", "error"]);
  assert.match(JSON.stringify(steps[0]!.output), /no card named \\"Nothing yet\\": give its html/);
  assert.match(JSON.stringify(steps[1]!.output), /at most 32000/);
  assert.equal(await t.prisma.rendererCard.count({ where: { projectId: todo.projectId } }), 0);
});

test("remember keeps a project note as the owner; recall finds it (once embedded) and never another user's note", async () => {
  const todo = await ownTodo("Remember my preferences");
  const runner = use(scriptedProvider([{ toolCalls: [{ toolName: "remember", input: { content: "The client prefers invoices in euros, due in 30 days" } }] }, { text: ["Noted."] }], { tools: true }));
  runner.start(todo.id);
  await runner.idle();
  const note = await t.prisma.memoryNote.findFirstOrThrow({ where: { projectId: todo.projectId } });
  assert.equal(note.content, "The client prefers invoices in euros, due in 30 days");
  assert.equal(note.userId, todo.userId);

  // Another user's personal note on the same subject must never come back.
  const stranger = await createTestUser(t.prisma);
  const theirs = await t.prisma.memoryNote.create({ data: { userId: stranger.id, content: "Invoices in euros for the client, due in 30 days" } });
  await embedNow("note", note.id);
  await embedNow("note", theirs.id);

  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "What do we know about invoices?", state: "PENDING" } });
  await t.prisma.todo.update({ where: { id: todo.id }, data: { status: "RUNNING" } });
  const seen: LanguageModelV3CallOptions[] = [];
  const again = use(scriptedProvider([{ toolCalls: [{ toolName: "recall", input: { query: "client invoices euros" } }] }, { text: ["Euros, 30 days."] }], { tools: true, seen }));
  again.start(todo.id);
  await again.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant", content: "Euros, 30 days." } });
  const step = (await blocksOf(reply.id))[0]!.content as { tool: string; output: { notes: { noteId: string; score: number }[] } };
  assert.equal(step.tool, "recall");
  assert.deepEqual(step.output.notes.map((n) => n.noteId), [note.id]);
  assert.ok(step.output.notes[0]!.score < 0.85);
  // The model saw the note in the tool result.
  assert.ok(JSON.stringify(seen[1]!.prompt).includes("invoices in euros"));
});
