import { test } from "node:test";
import assert from "node:assert/strict";
import { defer } from "../jobs/define.ts";
import type { Caller } from "../auth/caller.ts";
import { addMessage, updateMessage } from "../services/todos/messages.ts";
import { createTestUser, suiteTestRuntime } from "../testing/runtime.ts";
import { fireMessageJob } from "./fire-message-job.ts";
import { fireKey, scheduleMessage } from "./schedule-message.ts";
import { sweepScheduled } from "./scheduler.ts";

// Scheduled messages come due through `message.fire` jobs. The backend is started only in the
// last test: until then the jobs wait in the Job table, where the tests count them.

const t = suiteTestRuntime({ setup });
let starts: string[] = [];
const HOUR = 3_600_000;
function setup() {
  // Record the turns the lifecycle starts instead of running them.
  t.runtime.agent.start = (todoId: string) => void starts.push(todoId);
}

async function todoIn(status: "TODO" | "PAUSED" | "READY" = "READY") {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Scheduling" } });
  const caller: Caller = { credential: "apiKey", userId: user.id, email: user.email, name: null, isAdmin: false };
  const todo = await t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "c", status } });
  return { caller, todo };
}

const jobsOf = (messageId: string) => t.prisma.job.findMany({ where: { name: "message.fire", key: { startsWith: `${messageId}@` } }, orderBy: { runAt: "asc" } });
const messageOf = (id: string) => t.prisma.message.findUniqueOrThrow({ where: { id } });
const statusOf = async (id: string) => (await t.prisma.todo.findUniqueOrThrow({ where: { id } })).status;

let soon: { messageId: string; todoId: string };
test("a scheduled message queues one message.fire job, keyed by the message and its time", async () => {
  const { caller, todo } = await todoIn();
  const at = Date.now() + HOUR;
  const m = await addMessage(caller, todo.id, { content: "soon", scheduledAt: at, startProcessing: false });
  const jobs = await jobsOf(m.id);
  assert.deepEqual(
    jobs.map((j) => [j.key, j.data]),
    [[`${m.id}@${at}`, { messageId: m.id, at }]],
  );
  soon = { messageId: m.id, todoId: todo.id };
});

test("moved later: the job of the old time does nothing, the job of the new time fires it", async () => {
  const { caller, todo } = await todoIn();
  const first = Date.now() + HOUR;
  const m = await addMessage(caller, todo.id, { content: "later", scheduledAt: first, startProcessing: false });
  const later = first + HOUR;
  await updateMessage(caller, todo.id, m.id, { scheduledAt: later });
  await fireMessageJob.handler({ messageId: m.id, at: first }, { jobId: "j1", attempt: 1, once: (_k, fn) => fn("k"), defer });
  assert.equal((await messageOf(m.id)).state, "SCHEDULED");
  // The new time is still an hour ahead of this process's clock: a worker whose clock runs behind
  // the enqueuer's fires the message when its job runs, rather than finding it not due.
  await fireMessageJob.handler({ messageId: m.id, at: later }, { jobId: "j2", attempt: 1, once: (_k, fn) => fn("k"), defer });
  assert.equal((await messageOf(m.id)).state, "PENDING");
  assert.equal(await statusOf(todo.id), "RUNNING");
});

test("moved earlier: a second job for the new time (the old one cannot be moved)", async () => {
  const { caller, todo } = await todoIn();
  const first = Date.now() + 2 * HOUR;
  const m = await addMessage(caller, todo.id, { content: "sooner", scheduledAt: first, startProcessing: false });
  const earlier = first - HOUR;
  await updateMessage(caller, todo.id, m.id, { scheduledAt: earlier });
  const jobs = await jobsOf(m.id);
  assert.deepEqual(
    jobs.map((j) => j.key),
    [fireKey({ id: m.id, scheduledAt: new Date(earlier) }), fireKey({ id: m.id, scheduledAt: new Date(first) })],
  );
  // An edit of the text alone queues nothing more.
  await updateMessage(caller, todo.id, m.id, { content: "sooner, reworded" });
  assert.equal((await jobsOf(m.id)).length, 2);
});

let swept: { messageId: string; todoId: string };
let paused: { messageId: string; todoId: string };
test("the sweep queues what has no job, once however often it runs", async () => {
  const { todo } = await todoIn();
  const m = await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "before the deploy", state: "SCHEDULED", scheduledAt: new Date(Date.now() - 1000) } });
  const { todo: p } = await todoIn("PAUSED");
  const pm = await t.prisma.message.create({ data: { todoId: p.id, role: "user", content: "while paused", state: "SCHEDULED", scheduledAt: new Date(Date.now() - 500) } });
  assert.equal((await jobsOf(m.id)).length, 0);
  await sweepScheduled();
  await sweepScheduled();
  await scheduleMessage({ id: m.id, scheduledAt: m.scheduledAt! });
  assert.equal((await jobsOf(m.id)).length, 1);
  assert.equal((await jobsOf(pm.id)).length, 1);
  swept = { messageId: m.id, todoId: todo.id };
  paused = { messageId: pm.id, todoId: p.id };
});

test("once the backend runs, due messages fire: a turn starts, and a paused todo stays paused", async () => {
  // The first message's time comes (its job is moved to now; the handler matches the message's
  // own time, so it fires). The other far-future jobs would keep the backend from going idle.
  await t.prisma.job.updateMany({ where: { key: { startsWith: `${soon.messageId}@` } }, data: { runAt: new Date() } });
  await t.prisma.job.deleteMany({ where: { runAt: { gt: new Date(Date.now() + 60_000) } } });
  starts = [];
  await t.runtime.jobs!.start();
  await t.runtime.jobs!.idle();
  for (const fired of [soon, swept]) {
    assert.equal((await messageOf(fired.messageId)).state, "PENDING");
    assert.equal(await statusOf(fired.todoId), "RUNNING");
  }
  assert.deepEqual(starts.sort(), [soon.todoId, swept.todoId].sort());
  assert.equal((await messageOf(paused.messageId)).state, "PENDING");
  assert.equal(await statusOf(paused.todoId), "PAUSED");
  assert.equal(await t.prisma.job.count({ where: { name: "message.fire" } }), 0, "finished jobs are gone");
});
