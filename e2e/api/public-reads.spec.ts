import { expect, test, type APIResponse } from "@playwright/test";
import { connect } from "../support/sockets";
import { createUser, type TestUser } from "../support/users";
import {
  addMessage,
  addMessageRaw,
  createProject,
  createTodo,
  expectBadRequest,
  expectError,
  expectNull,
  getMessages,
  getTodo,
  h,
  okJson,
  shareProject,
  subscribeTodo,
  waitForReply,
  waitForStatus,
  type Todo,
} from "../support/todos";

// Issue 9: bounded message reads (A2), the public todo's allow-list (A10), and who may publish
// and set a project's agent defaults (A15). docs/api.md "Public todos, message bounds, publishing".
test.describe.configure({ timeout: 180_000 });

// The public todo's keys, at every level. An allow-list: a field added anywhere fails this test.
const PUBLIC_TODO_KEYS = ["blocks", "content", "createdAt", "hasMoreMessages", "id", "messages", "nextCursor", "status", "updatedAt"];
const PUBLIC_MESSAGE_KEYS = ["blocks", "content", "createdAt", "id", "messageId", "role", "state"];
const PUBLIC_BLOCK_KEYS = ["actionable", "blockId", "checked", "content", "id", "messageId", "position", "type"];

type PublicBlock = Record<string, unknown> & { blockId: string };
type PublicMessage = Record<string, unknown> & { messageId: string; content: string; blocks: PublicBlock[] };
type PublicTodo = Record<string, unknown> & { id: string; status: string; messages: PublicMessage[]; blocks: PublicBlock[]; hasMoreMessages: boolean; nextCursor: string | null };

function expectPublicShape(pub: PublicTodo) {
  expect(Object.keys(pub).sort()).toEqual(PUBLIC_TODO_KEYS);
  for (const m of pub.messages) {
    expect(Object.keys(m).sort()).toEqual(PUBLIC_MESSAGE_KEYS);
    for (const b of m.blocks) expect(Object.keys(b).sort()).toEqual(PUBLIC_BLOCK_KEYS);
  }
  for (const b of pub.blocks) expect(Object.keys(b).sort()).toEqual(PUBLIC_BLOCK_KEYS);
}

async function publish(u: TestUser, todoId: string) {
  await expectNull(await u.session.put(`/api/v1/todos/${todoId}`, { headers: h(u), data: { isPublic: true } }));
}

test("a public todo, signed out, carries exactly the public fields at every level on every base, and no private value", async ({ request }, info) => {
  const u = await createUser(info, "owner");
  const p = await createProject(u);
  const secrets = { systemPrompt: "PRIVATE-PROMPT-7f3a", metadata: "PRIVATE-META-91c2" };
  const ready = await createTodo(u, p.id, {
    content: "Plan:\n- Venue\n- Food",
    startProcessing: true,
    assignedAgent: "Planner",
    agentSettings: { systemPrompt: secrets.systemPrompt, temperature: 0.3 },
    metadata: { note: secrets.metadata },
  });
  const owned = await waitForReply(u, ready.id);
  expect(owned.blocks.length).toBeGreaterThan(0);
  expect(owned.messages.some((m) => m.usage !== null), "the reply has usage to leak").toBe(true);
  // A turn that failed: the provider's raw reason is in metadata.error and the reply's usage.
  const failing = await createTodo(u, p.id, { content: "Please [fail] now", startProcessing: true, agentSettings: { provider: "openai", model: "gpt-4o-mini" } });
  const failed = await waitForStatus(u, failing.id, "ERROR");
  const reason = String(failed.metadata.error);
  expect(reason).toMatch(/stand-in/);
  await publish(u, ready.id);
  await publish(u, failing.id);

  for (const [todo, status] of [[owned, "READY"], [failed, "ERROR"]] as const) {
    for (const base of ["/api/v1", "/cookie/v1", "/dst/v1"]) {
      const pub = await okJson<PublicTodo>(await request.get(`${base}/public/todos/${todo.id}`));
      expectPublicShape(pub);
      expect(pub).toMatchObject({ id: todo.id, content: todo.content, status, hasMoreMessages: false, nextCursor: null });
      expect(pub.messages.map((m) => [m.messageId, m.content])).toEqual(todo.messages.map((m) => [m.messageId, m.content]));
      expect(pub.blocks.map((b) => b.blockId)).toEqual(todo.blocks.map((b) => b.blockId));
      const text = JSON.stringify(pub);
      for (const leak of [secrets.systemPrompt, secrets.metadata, "Planner", u.userId, p.id, reason, "stand-in", "tokensIn", "costCents"]) expect(text, leak).not.toContain(leak);
    }
  }
});

test("reads are bounded: todo_get, todo_subscribe and the public read return the newest 50 by default; older ones page by before", async ({ request }, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "m0");
  for (let i = 1; i < 60; i++) await addMessage(u, t.id, { content: `m${i}`, startProcessing: false });
  const newest50 = Array.from({ length: 50 }, (_, i) => `m${i + 10}`);

  const got = await getTodo(u, t.id);
  expect(got.messages.map((m) => m.content)).toEqual(newest50);
  expect(got.hasMoreMessages).toBe(true);
  expect((await getTodo(u, t.id, { messageLimit: 200 })).messages).toHaveLength(60);

  const socket = await connect(u.baseURL, { token: u.apiKey });
  try {
    const sub = await okJson<Todo>(await subscribeTodo(u, t.id, socket.id!));
    expect(sub.messages.map((m) => m.content)).toEqual(newest50);
    expect(sub.hasMoreMessages).toBe(true);
  } finally {
    socket.disconnect();
  }

  // The member's older page: todo_getMessages before the oldest loaded.
  const older = await getMessages(u, t.id, { before: got.messages[0]!.messageId });
  expect(older.items.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`));
  expect(older.nextCursor).toBeNull();

  await publish(u, t.id);
  const pub = await okJson<PublicTodo>(await request.get(`/api/v1/public/todos/${t.id}`));
  expect(pub.messages.map((m) => m.content)).toEqual(newest50);
  expect([pub.hasMoreMessages, pub.nextCursor]).toEqual([true, pub.messages[0]!.messageId]);
  const pubOlder = await okJson<PublicTodo>(await request.get(`/api/v1/public/todos/${t.id}`, { params: { before: pub.nextCursor!, messageLimit: 4 } }));
  expect(pubOlder.messages.map((m) => m.content)).toEqual(["m6", "m7", "m8", "m9"]);
  expect(pubOlder.nextCursor).toBe(pubOlder.messages[0]!.messageId);
  // A before that is not a message of this todo is a 400 in the error shape, never a 500.
  const other = await createTodo(u, p.id, "elsewhere");
  await expectBadRequest(await request.get(`/api/v1/public/todos/${t.id}`, { params: { before: other.messages[0]!.messageId } }), "query.before");
});

test("a message is at most 100,000 characters on every write: 400 over it, and nothing is written", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Start", scheduledAt: Date.now() + 3_600_000 });
  const scheduled = t.messages[0]!;
  const over = "x".repeat(100_001);
  const max = "y".repeat(100_000);
  const before = await getTodo(u, t.id);

  const refused: [string, Promise<APIResponse>, string][] = [
    ["todo_addMessage", addMessageRaw(u, t.id, { content: over, startProcessing: false }), "body.content"],
    ["todo_updateMessage", u.session.patch(`/api/v1/todos/${t.id}/messages/${scheduled.messageId}`, { headers: h(u), data: { content: over } }), "body.content"],
    ["todo_updateAndStart", u.session.post(`/api/v1/todos/${t.id}/update-start`, { headers: h(u), data: { messageId: scheduled.messageId, content: over } }), "body.content"],
    ["todo_update", u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { content: over } }), "body.content"],
    ["project_createTodo", u.session.post(`/api/v1/projects/${p.id}/todos`, { headers: h(u), data: { content: over } }), "body.content"],
    ["project_startFromTemplate", u.session.post(`/api/v1/projects/${p.id}/todos/from-template`, { headers: h(u), data: { content: over, propose: true } }), "body.content"],
  ];
  for (const [, res, path] of refused) await expectBadRequest(await res, path);
  expect(await getTodo(u, t.id)).toEqual(before);
  const list = await okJson<{ items: unknown[] }>(await u.session.get(`/api/v1/projects/${p.id}/todos`, { headers: h(u) }));
  expect(list.items).toHaveLength(1);

  // Exactly at the bound is accepted.
  expect((await addMessage(u, t.id, { content: max, startProcessing: false })).content).toHaveLength(100_000);
});

// Publishing (todo isPublic, project isPublic) and the project's agent defaults are the owner's;
// editors keep writing todos, messages and the other settings (docs/api.md "Who may publish").
for (const role of ["owner", "editor", "viewer"] as const) {
  test(`${role}: publishing a todo or the project and setting the project's agent defaults`, async ({ request }, info) => {
    const [owner, editor, viewer] = await Promise.all(["owner", "editor", "viewer"].map((tag) => createUser(info, tag)));
    const p = await createProject(owner!, "Shared");
    await shareProject(owner!, p.id, editor!.email, "editor");
    await shareProject(owner!, p.id, viewer!.email, "viewer");
    const actor = { owner: owner!, editor: editor!, viewer: viewer! }[role];
    const t = await createTodo(owner!, p.id, "Team plan");
    const settingsOf = async () => okJson<{ agentDefaults: unknown; brandMarkdown: string }>(await owner!.session.get(`/api/v1/settings/projects/${p.id}`, { headers: h(owner!) }));
    const projectOf = async () => okJson<{ isPublic: boolean }>(await owner!.session.get(`/api/v1/projects/${p.id}`, { headers: h(owner!) }));

    const calls = {
      todoPublic: () => actor.session.put(`/api/v1/todos/${t.id}`, { headers: h(actor), data: { isPublic: true } }),
      // Through the cookie base too: the rule is the access module's, not a base's.
      todoPublicCookie: () => actor.session.put(`/cookie/v1/todos/${t.id}`, { data: { isPublic: true, content: "Team plan" } }),
      agentDefaults: () => actor.session.put(`/api/v1/settings/projects/${p.id}`, { headers: h(actor), data: { agentDefaults: { systemPrompt: "Always obey me" } } }),
      projectPublic: () => actor.session.put(`/api/v1/projects/${p.id}`, { headers: h(actor), data: { isPublic: true } }),
    };
    if (role === "owner") {
      for (const call of Object.values(calls)) expect((await call()).status()).toBe(200);
      expect((await request.get(`/api/v1/public/todos/${t.id}`)).status()).toBe(200);
      expect((await settingsOf()).agentDefaults).toEqual({ systemPrompt: "Always obey me" });
      expect((await projectOf()).isPublic).toBe(true);
      return;
    }
    for (const [name, call] of Object.entries(calls)) {
      const body = await expectError(await call(), 403, "FORBIDDEN");
      expect(body.message, name).toBe("Only the project's owner may do this");
    }
    // Nothing changed.
    await expectError(await request.get(`/api/v1/public/todos/${t.id}`), 404, "NOT_FOUND");
    expect((await getTodo(owner!, t.id)).isPublic).toBe(false);
    expect((await settingsOf()).agentDefaults).toBeNull();
    expect((await projectOf()).isPublic).toBe(false);

    // The editor keeps writing todos, messages and the other project settings; the viewer reads.
    const writes = [
      () => actor.session.put(`/api/v1/todos/${t.id}`, { headers: h(actor), data: { content: `Edited by ${role}` } }),
      () => addMessageRaw(actor, t.id, { content: "A note", startProcessing: false }),
      () => actor.session.put(`/api/v1/settings/projects/${p.id}`, { headers: h(actor), data: { brandMarkdown: `# By ${role}` } }),
    ];
    for (const write of writes) {
      const res = await write();
      if (role === "editor") expect(res.status(), await res.text()).toBe(200);
      else await expectError(res, 403, "FORBIDDEN");
    }
    if (role === "editor") {
      expect((await getTodo(owner!, t.id)).content).toBe("Edited by editor");
      expect((await settingsOf()).brandMarkdown).toBe("# By editor");
    }
  });
}
