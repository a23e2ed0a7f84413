import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { AppEvent } from "../realtime/bus.ts";
import { LocalAgent } from "./local-agent.ts";
import { createTestUser, startTestRuntime, type TestRuntime } from "../testing/runtime.ts";

let t: TestRuntime;
const events: AppEvent[] = [];
before(async () => {
  t = await startTestRuntime();
  t.bus.subscribe((e) => events.push(e));
});
after(async () => {
  await t.close();
});

async function runningTodo(content: string) {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Agent" } });
  const todo = await t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content, status: "RUNNING" } });
  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content, state: "PENDING" } });
  return todo;
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
  assert.ok(usage.tokensIn > 0 && usage.tokensOut > 0 && usage.costCents === 0 && usage.durationMs >= 0);
  const mine = events.filter((e) => e.todoId === todo.id);
  const deltas = mine.filter((e) => e.type === "message.delta").map((e) => (e.data as { delta: string }).delta);
  assert.equal(deltas.join(""), reply!.content);
  assert.deepEqual(
    mine.filter((e) => e.type === "todo.status").map((e) => e.data),
    [{ status: "READY", previous: "RUNNING" }],
  );
  assert.equal(mine.filter((e) => e.type === "block.updated").length, 3);
});

test("a todo that is not RUNNING is left alone; input that arrives during a turn gets its own turn", async () => {
  const idle = await runningTodo("nothing");
  await t.prisma.todo.update({ where: { id: idle.id }, data: { status: "PAUSED" } });
  t.runtime.agent.start(idle.id);
  await t.runtime.agent.idle();
  assert.equal(await t.prisma.message.count({ where: { todoId: idle.id, role: "assistant" } }), 0);

  // A slower agent, so the second message surely arrives while the first turn streams.
  const agent = new LocalAgent(30);
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
