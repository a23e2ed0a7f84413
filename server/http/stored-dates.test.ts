import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MAX_EPOCH_MS } from "../../lib/schemas/common.ts";
import { suiteTestApp } from "../testing/app.ts";

// Issue 9 A7: a row whose date lies past what clients can read (written before the bounds existed,
// or by hand) never takes a read or a list down: serializers keep every timestamp in its schema.
describe("a stored date out of range", () => {
  const app = suiteTestApp();

  test("todo_list, todo_get, todo_getMessages and task_getPending still answer 200 with the bound", async () => {
    const u = await app.newUser();
    const project = await app.call("POST", "/projects", { key: u.apiKey, body: { name: "Dates" } });
    assert.equal(project.status, 200, project.text);
    const good = await app.call("POST", `/projects/${project.json.id}/todos`, { key: u.apiKey, body: { content: "fine" } });
    const bad = await app.call("POST", `/projects/${project.json.id}/todos`, { key: u.apiKey, body: { content: "far", scheduledAt: Date.now() + 3_600_000 } });
    assert.equal(bad.status, 200, bad.text);
    // What a far-future scheduledAt used to store: year 10000 and year 275760 (the JS maximum).
    await app.rt.prisma.$executeRawUnsafe(`UPDATE "Todo" SET "scheduledAt" = '10000-01-01 00:00:00' WHERE "id" = $1`, bad.json.id);
    await app.rt.prisma.$executeRawUnsafe(`UPDATE "Message" SET "scheduledAt" = '275760-09-13 00:00:00' WHERE "todoId" = $1`, bad.json.id);

    const list = await app.call("GET", `/projects/${project.json.id}/todos`, { key: u.apiKey });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.json.items.map((i: { id: string }) => i.id).sort(), [good.json.id, bad.json.id].sort());
    assert.equal(list.json.items.find((i: { id: string }) => i.id === bad.json.id).scheduledAt, MAX_EPOCH_MS);

    const one = await app.call("GET", `/todos/${bad.json.id}`, { key: u.apiKey });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.json.scheduledAt, MAX_EPOCH_MS);
    assert.equal(one.json.messages[0].scheduledAt, MAX_EPOCH_MS);

    const messages = await app.call("GET", `/todos/${bad.json.id}/messages`, { key: u.apiKey });
    assert.equal(messages.status, 200, messages.text);

    const pending = await app.call("GET", "/tasks/pending", { key: u.apiKey });
    assert.equal(pending.status, 200, pending.text);
    assert.equal(pending.json.find((t: { todoId: string }) => t.todoId === bad.json.id).dueAt, MAX_EPOCH_MS);
  });
});
