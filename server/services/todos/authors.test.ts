import { test } from "node:test";
import assert from "node:assert/strict";
import { suiteTestApp } from "../../testing/app.ts";
import { ok, type Json } from "../../testing/http.ts";

// Message.authorId through the real pipeline, on every base a user message is written through
// (docs/api.md "Todos, messages and blocks"): the acting user, whatever their credential.

const app = suiteTestApp();


test("a user message names who wrote it: API key, session, device token, a todo's first message, a template's; stored as answered", async () => {
  const [owner, editor] = [await app.newUser(), await app.newUser()];
  const project = await ok(app.call("POST", "/projects", { key: owner.apiKey, body: { name: "Shared" } }));
  await ok(app.call("POST", `/projects/${project.id}/share`, { key: owner.apiKey, body: { email: editor.email, role: "editor" } }));

  const created = await ok(app.call("POST", `/projects/${project.id}/todos`, { key: editor.apiKey, body: { content: "The editor's todo", startProcessing: false } }));
  assert.deepEqual(created.messages.map((m: Json) => m.authorId), [editor.userId]);
  const fromTemplate = await ok(app.call("POST", `/projects/${project.id}/todos/from-template`, { key: owner.apiKey, body: { content: "The owner's", propose: true } }));
  assert.deepEqual(fromTemplate.messages.map((m: Json) => m.authorId), [owner.userId]);

  const byKey = await ok(app.call("POST", `/todos/${created.id}/messages`, { key: owner.apiKey, body: { content: "by key", startProcessing: false } }));
  const bySession = await ok(app.call("POST", `/todos/${created.id}/messages`, { base: "cookie", cookie: editor.sessionCookie, body: { content: "by session", startProcessing: false } }));
  const mayfly = await ok(app.call("POST", "/cli/mayfly/token", { key: editor.apiKey, body: { todoId: created.id } }));
  const byDevice = await ok(
    app.call("POST", `/todos/${created.id}/messages`, { base: "dst", headers: { authorization: `Bearer ${mayfly.apiToken}` }, body: { content: "by device", startProcessing: false } }),
  );
  assert.deepEqual([byKey.authorId, bySession.authorId, byDevice.authorId], [owner.userId, editor.userId, editor.userId]);

  const stored = await app.rt.prisma.message.findMany({ where: { todoId: created.id }, orderBy: { seq: "asc" }, select: { content: true, authorId: true } });
  assert.deepEqual(
    stored.map((m) => [m.content, m.authorId]),
    [
      ["The editor's todo", editor.userId],
      ["by key", owner.userId],
      ["by session", editor.userId],
      ["by device", editor.userId],
    ],
  );
});

test("a scheduled message another editor rewrites is theirs from then on; moving it or sending it as it is keeps its author", async () => {
  const [owner, editor] = [await app.newUser(), await app.newUser()];
  const project = await ok(app.call("POST", "/projects", { key: owner.apiKey, body: { name: "Rewrites" } }));
  await ok(app.call("POST", `/projects/${project.id}/share`, { key: owner.apiKey, body: { email: editor.email, role: "editor" } }));
  const todo = await ok(app.call("POST", `/projects/${project.id}/todos`, { key: owner.apiKey, body: { content: "Plan", startProcessing: false } }));
  const later = Date.now() + 86_400_000;
  const authorOf = async (id: string) => (await app.rt.prisma.message.findUniqueOrThrow({ where: { id } })).authorId;
  const schedule = (content: string) => ok(app.call("POST", `/todos/${todo.id}/messages`, { key: owner.apiKey, body: { content, scheduledAt: later } }));
  const patch = (id: string, body: Json) => ok(app.call("PATCH", `/todos/${todo.id}/messages/${id}`, { key: editor.apiKey, body }));

  const moved = await schedule("Water the beds");
  await patch(moved.id, { scheduledAt: later + 60_000 });
  assert.equal(await authorOf(moved.id), owner.userId, "a new time only");
  await patch(moved.id, { content: "Water the beds" });
  assert.equal(await authorOf(moved.id), owner.userId, "the same words");
  await patch(moved.id, { content: "Water the beds at six" });
  assert.equal(await authorOf(moved.id), editor.userId, "new words");

  // Edit and start: the words sent are who sent them.
  const sent = await schedule("Sow the basil");
  await ok(app.call("POST", `/todos/${todo.id}/update-start`, { key: editor.apiKey, body: { messageId: sent.id, content: "Sow the basil" } }));
  assert.equal(await authorOf(sent.id), owner.userId, "sent as it was");
  const other = await ok(app.call("POST", `/projects/${project.id}/todos`, { key: owner.apiKey, body: { content: "Harvest", startProcessing: false } }));
  const rewritten = await ok(app.call("POST", `/todos/${other.id}/messages`, { key: owner.apiKey, body: { content: "Pick the beans", scheduledAt: later } }));
  await ok(app.call("POST", `/todos/${other.id}/update-start`, { key: editor.apiKey, body: { messageId: rewritten.id, content: "Pick the beans and peas" } }));
  assert.equal(await authorOf(rewritten.id), editor.userId, "sent with new words");
});

test("two members rewriting one scheduled message at once: the stored words are always credited to whoever wrote them", async () => {
  const [owner, editor] = [await app.newUser(), await app.newUser()];
  const project = await ok(app.call("POST", "/projects", { key: owner.apiKey, body: { name: "Race" } }));
  await ok(app.call("POST", `/projects/${project.id}/share`, { key: owner.apiKey, body: { email: editor.email, role: "editor" } }));
  const todo = await ok(app.call("POST", `/projects/${project.id}/todos`, { key: owner.apiKey, body: { content: "Plan", startProcessing: false } }));
  const message = await ok(app.call("POST", `/todos/${todo.id}/messages`, { key: owner.apiKey, body: { content: "owner's words", scheduledAt: Date.now() + 86_400_000 } }));
  const words = new Map([
    [owner.userId, "owner's words"],
    [editor.userId, "editor's words"],
  ]);
  // Each sends its own words again and again: a rewrite compared against words read before the
  // other's landed would keep the other as author of words they never wrote.
  for (let round = 0; round < 25; round++) {
    await Promise.all(
      [owner, editor].map((u) => ok(app.call("PATCH", `/todos/${todo.id}/messages/${message.id}`, { key: u.apiKey, body: { content: words.get(u.userId) } }))),
    );
    const stored = await app.rt.prisma.message.findUniqueOrThrow({ where: { id: message.id } });
    assert.equal(stored.content, words.get(stored.authorId!), `round ${round}: "${stored.content}" credited to ${stored.authorId === owner.userId ? "the owner" : "the editor"}`);
  }
});
