import { test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser, suiteTestRuntime } from "../testing/runtime.ts";
import { dropLease, leaseIsLive, MAX_RECOVERIES, takeLease, TURN_LOST_TWICE, voidLeases } from "./turn-lease.ts";

const t = suiteTestRuntime();

async function runningTodo(workflow: object = {}) {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Lease" } });
  return t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "c", status: "RUNNING", workflow } });
}
const row = (id: string) => t.prisma.todo.findUniqueOrThrow({ where: { id }, select: { leaseOwner: true, leaseUntil: true, workflow: true } });
const a = { owner: "process-a", leaseMs: 60_000, maxPerUser: 4 };
const b = { owner: "process-b", leaseMs: 60_000, maxPerUser: 4 };

test("the lease is the todo's typed columns: one holder at a time, renewed only by its holder", async () => {
  const todo = await runningTodo();
  const before = Date.now();
  assert.equal(await takeLease(a, todo.id), "ok");
  const held = await row(todo.id);
  assert.equal(held.leaseOwner, "process-a");
  assert.ok(held.leaseUntil!.getTime() >= before + a.leaseMs);
  assert.deepEqual(held.workflow, {}, "nothing of the lease goes into the workflow JSON");
  assert.ok(leaseIsLive(held));
  assert.equal(await takeLease(b, todo.id), "held");
  assert.equal(await takeLease(b, todo.id, true), "held");
  assert.equal(await takeLease(a, todo.id, true), "ok");
  await dropLease(todo.id);
  assert.deepEqual(await row(todo.id), { leaseOwner: null, leaseUntil: null, workflow: {} });
  assert.equal(await takeLease(b, todo.id), "ok");
});

test("a lease left behind counts a recovery when taken over; one recovery too many fails the turn", async () => {
  const turn = { messageId: "m", startedAt: 1, userMessages: ["hi"] };
  const todo = await runningTodo({ currentTurn: turn });
  assert.equal(await takeLease(a, todo.id), "ok");
  await voidLeases(); // what a restart of the embedded database does
  const voided = await row(todo.id);
  assert.equal(voided.leaseOwner, "process-a");
  assert.equal(leaseIsLive(voided), false);
  assert.equal(await takeLease(b, todo.id), "ok");
  assert.deepEqual((await row(todo.id)).workflow, { currentTurn: { ...turn, recoveries: 1 } });
  assert.equal(MAX_RECOVERIES, 1);
  await voidLeases();
  await assert.rejects(takeLease(a, todo.id), { message: TURN_LOST_TWICE });
});

test("the per-user limit counts the user's live leases in every process", async () => {
  const first = await runningTodo();
  const second = await t.prisma.todo.create({ data: { projectId: first.projectId, userId: first.userId, content: "c2", status: "RUNNING" } });
  const one = { ...a, maxPerUser: 1 };
  assert.equal(await takeLease(one, first.id), "ok");
  assert.equal(await takeLease({ ...b, maxPerUser: 1 }, second.id), "busy");
  await dropLease(first.id);
  assert.equal(await takeLease({ ...b, maxPerUser: 1 }, second.id), "ok");
});
