import { expect, test } from "@playwright/test";
import { connect } from "../support/sockets";
import { createUser } from "../support/users";
import { addMessage, createProject, createTodo, expectError, expectNull, getMessages, getTodo, h, okJson, recordEvents, shareProject, subscribeTodo, type Message } from "../support/todos";

// Message.authorId (docs/api.md "Messages"): in a shared project each user message names who wrote
// it, through every credential and in the live events; the agent's name no one; a public reader
// learns no user id. project_getMembers names the authors.
test.describe.configure({ timeout: 120_000 });

test("in a shared project the editor's message carries the editor's authorId and the owner's the owner's; the public read carries none", async ({ request }, info) => {
  const [owner, editor, viewer, stranger] = await Promise.all([createUser(info, "owner"), createUser(info, "editor"), createUser(info, "viewer"), createUser(info, "stranger")]);
  const p = await createProject(owner, "Shared chat");
  await shareProject(owner, p.id, editor.email, "editor");
  await shareProject(owner, p.id, viewer.email, "viewer");

  // The owner creates the todo: its first message is the owner's.
  const t = await createTodo(owner, p.id, { content: "Plan the garden", startProcessing: false });
  expect(t.messages.map((m) => [m.role, m.authorId])).toEqual([["user", owner.userId]]);

  // The owner watches the todo live while the editor writes, with an API key and with the browser session.
  const socket = await connect(owner.baseURL, { token: owner.apiKey });
  try {
    const rec = recordEvents(socket);
    await okJson(await subscribeTodo(owner, t.id, socket.id!));
    const byKey = await addMessage(editor, t.id, { content: "Add tomatoes", startProcessing: false });
    expect(byKey.authorId).toBe(editor.userId);
    const byCookie = await okJson<Message>(await editor.session.post(`/cookie/v1/todos/${t.id}/messages`, { data: { content: "And basil", startProcessing: false } }));
    expect(byCookie.authorId).toBe(editor.userId);
    const mine = await addMessage(owner, t.id, { content: "Fine by me", startProcessing: false });
    expect(mine.authorId).toBe(owner.userId);
    // A scheduled message is its writer's too.
    const later = await addMessage(editor, t.id, { content: "Water them", scheduledAt: Date.now() + 3_600_000 });
    expect(later.authorId).toBe(editor.userId);

    // The live events carry the same Message, author included.
    await expect
      .poll(() => rec.ofType("message.created", t.id).map((e) => [(e.data as Message).content, (e.data as Message).authorId]), { timeout: 10_000 })
      .toEqual([
        ["Add tomatoes", editor.userId],
        ["And basil", editor.userId],
        ["Fine by me", owner.userId],
        ["Water them", editor.userId],
      ]);
  } finally {
    socket.disconnect();
  }

  // Every reader sees the same authors: owner, editor, viewer, on todo_get and todo_getMessages.
  const expected = [
    ["Plan the garden", owner.userId],
    ["Add tomatoes", editor.userId],
    ["And basil", editor.userId],
    ["Fine by me", owner.userId],
    ["Water them", editor.userId],
  ];
  for (const u of [owner, editor, viewer]) {
    expect((await getTodo(u, t.id)).messages.map((m) => [m.content, m.authorId])).toEqual(expected);
    expect((await getMessages(u, t.id)).items.map((m) => [m.content, m.authorId])).toEqual(expected);
  }

  // The members who may read the project, with what names them: any member reads it, a stranger gets 404.
  type Members = { items: { userId: string; name: string | null; email: string; role: string }[] };
  const members = await okJson<Members>(await viewer.session.get(`/api/v1/projects/${p.id}/members`, { headers: h(viewer) }));
  expect(members.items.map((m) => [m.userId, m.email, m.role])).toEqual([
    [owner.userId, owner.email, "owner"],
    ...[
      [editor.userId, editor.email, "editor"],
      [viewer.userId, viewer.email, "viewer"],
    ].sort((a, b) => a[1]!.localeCompare(b[1]!)),
  ]);
  await expectError(await stranger.session.get(`/api/v1/projects/${p.id}/members`, { headers: h(stranger) }), 404, "NOT_FOUND");

  // Published: the public read has the conversation, and no author, no user id anywhere.
  await expectNull(await owner.session.put(`/api/v1/todos/${t.id}`, { headers: h(owner), data: { isPublic: true } }));
  const res = await request.get(`/api/v1/public/todos/${t.id}`);
  expect(res.status()).toBe(200);
  const text = await res.text();
  const pub = JSON.parse(text) as { messages: Record<string, unknown>[] };
  expect(pub.messages.map((m) => m.content)).toEqual(["Plan the garden", "Add tomatoes", "And basil", "Fine by me", "Water them"]);
  for (const m of pub.messages) expect(m).not.toHaveProperty("authorId");
  for (const id of [owner.userId, editor.userId, viewer.userId]) expect(text).not.toContain(id);
});
