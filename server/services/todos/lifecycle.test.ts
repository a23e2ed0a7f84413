import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AppEvent } from "../../realtime/bus.ts";
import { createTestUser, suiteTestRuntime } from "../../testing/runtime.ts";
import { turnSignals } from "../../agent/turn-signals.ts";
import { changeTodo, lockTodo, setStatus } from "./lifecycle.ts";

const t = suiteTestRuntime({ setup });
let starts: string[] = [];
let events: AppEvent[] = [];
function setup() {
  // Record the turns the lifecycle starts instead of running them.
  t.runtime.agent.start = (todoId: string) => void starts.push(todoId);
  t.bus.subscribe((e) => void events.push(e));
}

async function todoIn(status: "TODO" | "RUNNING") {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Lifecycle" } });
  starts = [];
  events = [];
  return t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "c", status } });
}

const seen = () => events.map((e) => [e.type, e.data]);

test("after the commit: the change's events in order, then todo.status, then the turn", async () => {
  const todo = await todoIn("TODO");
  await changeTodo(todo.id, async (tx, current, fx) => {
    fx.emit("message.created", { n: 1 });
    await setStatus(tx, current, fx, "RUNNING");
    assert.deepEqual(events, [], "nothing is published inside the transaction");
  });
  assert.deepEqual(seen(), [
    ["message.created", { n: 1 }],
    ["todo.status", { status: "RUNNING", previous: "TODO" }],
  ]);
  assert.deepEqual(starts, [todo.id]);
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "RUNNING");
});

test("a change that throws writes nothing, publishes nothing and starts no turn", async () => {
  const todo = await todoIn("TODO");
  await assert.rejects(
    changeTodo(todo.id, async (tx, current, fx) => {
      await setStatus(tx, current, fx.emit("message.created", {}), "RUNNING");
      throw new Error("refused");
    }),
    /refused/,
  );
  assert.deepEqual(events, []);
  assert.deepEqual(starts, []);
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "TODO");
});

test("a turn the runner continues itself is not started again, and an unchanged status publishes no todo.status", async () => {
  const todo = await todoIn("RUNNING");
  await changeTodo(todo.id, async (tx, current, fx) => setStatus(tx, current, fx, "RUNNING", {}, { continued: true }));
  assert.deepEqual(seen(), []);
  assert.deepEqual(starts, []);
  await changeTodo(todo.id, async (tx, current, fx) => setStatus(tx, current, fx, "RUNNING"));
  assert.deepEqual(starts, [todo.id], "a RUNNING todo asked to run is handed to the agent (which dedups)");
});

test("a change out of RUNNING stops the todo's turn; the turn's own end (continued) signals nothing", async () => {
  const todo = await todoIn("RUNNING");
  const signals: string[] = [];
  const unwatch = turnSignals.watch(todo.id, { stop: () => void signals.push("stop"), flush: async () => void signals.push("flush") });
  try {
    await changeTodo(todo.id, async (tx, current, fx) => setStatus(tx, current, fx, "READY", {}, { continued: true }));
    assert.deepEqual(signals, []);
    await changeTodo(todo.id, async (tx, current, fx) => setStatus(tx, current, fx, "RUNNING", {}, { continued: true }));
    await changeTodo(todo.id, async (tx, current, fx) => setStatus(tx, current, fx, "PAUSED"));
    assert.deepEqual(signals, ["stop"]);
  } finally {
    unwatch();
  }
});

test("lockTodo reads the locked row as Prisma does: status, times and JSON", async () => {
  const todo = await todoIn("TODO");
  await t.prisma.todo.update({
    where: { id: todo.id },
    data: { scheduledAt: new Date("2026-01-02T03:04:05.678Z"), workflow: { turn: 2, list: [1, "x", null] }, metadata: { a: { b: true } }, leaseOwner: "p", leaseUntil: new Date("2026-05-06T07:08:09.123Z") },
  });
  const select = { id: true, projectId: true, userId: true, isPublic: true, status: true, scheduledAt: true, workflow: true, metadata: true, agentSettings: true, leaseOwner: true, leaseUntil: true } as const;
  const locked = await t.prisma.$transaction((tx) => lockTodo(tx, todo.id));
  assert.deepEqual(locked, await t.prisma.todo.findUnique({ where: { id: todo.id }, select }));
  assert.equal(await t.prisma.$transaction((tx) => lockTodo(tx, "no-such-todo")), null);
});

test("an unknown todo: nothing runs, null", async () => {
  await todoIn("TODO");
  assert.equal(await changeTodo("no-such-todo", async () => "ran"), null);
  assert.deepEqual([events, starts], [[], []]);
});

// The invariants of issue 10: one writer of Todo.status, one row-lock helper.
const root = path.resolve(import.meta.dirname, "../..");
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" || e.name === "testing" ? [] : sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}
/** What each `.todo.<write>(…)` call writes: its argument text from `data:` on (balanced parentheses). */
function todoWrites(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\.todo\.(?:create|createMany|update|updateMany|upsert)\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < text.length && depth > 0; i++) depth += text[i] === "(" ? 1 : text[i] === ")" ? -1 : 0;
    const call = text.slice(m.index, i);
    out.push(call.slice(Math.max(0, call.indexOf("data:"))));
  }
  return out;
}

test("Todo.status is written only by server/services/todos/lifecycle.ts", () => {
  const writers = sources(root)
    .filter((file) => {
      const text = readFileSync(file, "utf8");
      return todoWrites(text).some((call) => /\bstatus\b/.test(call)) || /UPDATE\s+"Todo"\s+SET[^`;]*"status"/i.test(text);
    })
    .map((file) => path.relative(root, file));
  assert.deepEqual(writers, ["services/todos/lifecycle.ts"]);
});

test("rows are locked only through lockRow and lockAndRead (server/db/lock.ts)", () => {
  const lockers = sources(root)
    .filter((file) => /FOR\s+UPDATE`/i.test(readFileSync(file, "utf8")))
    .map((file) => path.relative(root, file));
  assert.deepEqual(lockers, ["db/lock.ts"]);
});
