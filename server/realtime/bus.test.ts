import { test } from "node:test";
import assert from "node:assert/strict";
import { envelopeOf, EventBus, roomsFor } from "./bus.ts";

test("publish stamps id and time and reaches every listener", () => {
  const bus = new EventBus();
  const seen: string[] = [];
  bus.subscribe((e) => seen.push(`a:${e.type}`));
  const off = bus.subscribe((e) => seen.push(`b:${e.type}`));
  const event = bus.publish({ type: "project.updated", projectId: "p1", data: { name: "x" } });
  assert.match(event.id, /^[0-9a-f-]{36}$/);
  assert.ok(Math.abs(event.at - Date.now()) < 5_000);
  off();
  bus.publish({ type: "project.deleted", projectId: "p1", data: null });
  assert.deepEqual(seen, ["a:project.updated", "b:project.updated", "a:project.deleted"]);
});

test("a throwing listener does not stop the others", () => {
  const bus = new EventBus();
  let reached = false;
  bus.subscribe(() => {
    throw new Error("boom");
  });
  bus.subscribe(() => {
    reached = true;
  });
  bus.publish({ type: "todo.created", todoId: "t", data: {} });
  assert.equal(reached, true);
});

test("rooms follow the ids the event names", () => {
  const rooms = roomsFor({ type: "message.created", id: "1", at: 0, projectId: "p", todoId: "t", data: {} });
  assert.deepEqual(rooms, ["project:p", "todo:t"]);
});

test("an event's audience reaches those users' own rooms (once each) and is not part of the envelope", () => {
  const event = { type: "project.deleted" as const, id: "1", at: 0, projectId: "p", userId: "u1", audience: ["u1", "u2", "u3"], data: { projectId: "p" } };
  assert.deepEqual(roomsFor(event), ["project:p", "user:u1", "user:u2", "user:u3"]);
  assert.deepEqual(envelopeOf(event), { type: "project.deleted", id: "1", at: 0, projectId: "p", userId: "u1", data: { projectId: "p" } });
});

test("affect reaches every effect sink, waits for them, and never rejects", async () => {
  const bus = new EventBus();
  const seen: string[] = [];
  bus.onEffect(async (e) => {
    await new Promise((r) => setTimeout(r, 10));
    seen.push(`slow:${e.kind}`);
  });
  bus.onEffect(() => {
    throw new Error("boom");
  });
  const off = bus.onEffect((e) => void seen.push(`fast:${e.kind}`));
  await bus.affect({ kind: "credential.revoked", credential: "apiKey:k1" });
  assert.deepEqual(seen.sort(), ["fast:credential.revoked", "slow:credential.revoked"]);
  off();
  await bus.affect({ kind: "access.lost", userId: "u1" });
  assert.deepEqual(seen.sort(), ["fast:credential.revoked", "slow:access.lost", "slow:credential.revoked"]);
});
