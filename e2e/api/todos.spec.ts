import { expect, test } from "@playwright/test";
import { createUser } from "../support/users";
import {
  MISSING_ID,
  addMessage,
  createProject,
  createTodo,
  expectBadRequest,
  expectError,
  expectNull,
  getTodo,
  h,
  inOneHour,
  listAllPages,
  listTodos,
  setStatus,
  sleep,
  waitForReply,
  type ErrorBody,
  type Todo,
  type TodoItem,
} from "../support/todos";

test.describe.configure({ timeout: 120_000 });

const withoutWorkflow = ({ workflow: _w, ...rest }: Todo) => rest;

test("create: the content becomes the first user message; todo_get returns the same todo", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Write the release notes", agentSettingsId: "preset-x", businessContextId: "biz-x", assignedAgent: "writer", metadata: { source: "e2e" } });

  expect(t).toMatchObject({
    projectId: p.id,
    userId: u.userId,
    groupId: null,
    groupSlug: null,
    content: "Write the release notes",
    status: "TODO",
    scheduledAt: null,
    assignedAgent: "writer",
    agentSettingsId: "preset-x",
    businessContextId: "biz-x",
    isPublic: false,
    metadata: { source: "e2e" },
    hasMoreMessages: false,
  });
  expect(typeof t.id).toBe("string");
  for (const ts of [t.createdAt, t.updatedAt, t.lastActivityAt]) expect(Number.isInteger(ts)).toBe(true);
  expect(t.messages).toHaveLength(1);
  const [first] = t.messages;
  expect(first).toMatchObject({ todoId: t.id, role: "user", content: "Write the release notes", scheduledAt: null, blocks: [] });
  expect(first!.messageId).toBe(first!.id);
  expect(Number.isInteger(first!.createdAt)).toBe(true);
  expect(t.blocks).toEqual([]);

  const got = await getTodo(u, t.id);
  expect(withoutWorkflow(got)).toEqual(withoutWorkflow(t));
});

test("startProcessing: true starts a turn (RUNNING) that ends READY with an assistant reply", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Say hello", startProcessing: true });
  expect(t.status).toBe("RUNNING");

  const done = await waitForReply(u, t.id);
  expect(done.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(done.messages[0]!.content).toBe("Say hello");
  const reply = done.messages[1]!;
  expect(reply.content.length).toBeGreaterThan(0);
  expect(reply.todoId).toBe(t.id);
  expect(done.lastActivityAt).toBeGreaterThanOrEqual(t.lastActivityAt);
  expect(done.blocks).toEqual(done.messages.flatMap((m) => m.blocks));
});

test("a future scheduledAt makes the todo and its first message SCHEDULED", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const at = inOneHour();
  const t = await createTodo(u, p.id, { content: "Later", scheduledAt: at });
  expect(t).toMatchObject({ status: "SCHEDULED", scheduledAt: at });
  expect(t.messages).toHaveLength(1);
  expect(t.messages[0]).toMatchObject({ role: "user", content: "Later", state: "SCHEDULED", scheduledAt: at });
  expect((await getTodo(u, t.id)).status).toBe("SCHEDULED");
});

test("invalid input is 400 with issues; a missing project or todo is 404 and nothing is created", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const post = (data: unknown) => u.session.post(`/api/v1/projects/${p.id}/todos`, { headers: h(u), data });

  await expectBadRequest(await post({}), "body.content");
  await expectBadRequest(await post({ content: "x", scheduledAt: "tomorrow" }), "body.scheduledAt");
  await expectBadRequest(await post({ content: "x", startProcessing: "yes" }), "body.startProcessing");
  expect((await listTodos(u, p.id)).items).toEqual([]);

  await expectError(await u.session.post(`/api/v1/projects/${MISSING_ID}/todos`, { headers: h(u), data: { content: "x" } }), 404, "NOT_FOUND");
  await expectError(await u.session.get(`/api/v1/todos/${MISSING_ID}`, { headers: h(u) }), 404, "NOT_FOUND");
  await expectError(await u.session.put(`/api/v1/todos/${MISSING_ID}`, { headers: h(u), data: { content: "x" } }), 404, "NOT_FOUND");

  const t = await createTodo(u, p.id, "Keep me");
  await expectBadRequest(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { content: 42 } }), "body.content");
  await expectBadRequest(await u.session.get(`/api/v1/todos/${t.id}`, { headers: h(u), params: { messageLimit: 0 } }), "query.messageLimit");
  await expectBadRequest(await u.session.get(`/api/v1/todos/${t.id}`, { headers: h(u), params: { messageLimit: "many" } }), "query.messageLimit");
  expect((await getTodo(u, t.id)).content).toBe("Keep me");
});

test("update changes the given fields and answers null; an unknown groupSlug is 404", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Draft");
  const at = inOneHour();

  const res = await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { content: "Final", assignedAgent: "agent-7", scheduledAt: at, metadata: { color: "blue" } } });
  await expectNull(res);
  const after = await getTodo(u, t.id);
  expect(after).toMatchObject({ id: t.id, content: "Final", assignedAgent: "agent-7", scheduledAt: at, metadata: { color: "blue" }, isPublic: false });
  expect(after.updatedAt).toBeGreaterThanOrEqual(t.updatedAt);

  await expectNull(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { assignedAgent: null, scheduledAt: null } }));
  expect(await getTodo(u, t.id)).toMatchObject({ content: "Final", assignedAgent: null, scheduledAt: null });

  const before = await getTodo(u, t.id);
  await expectError(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { content: "Not this", groupSlug: "no-such-group" } }), 404, "NOT_FOUND");
  expect((await getTodo(u, t.id)).content).toBe(before.content);
  await expectNull(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { groupSlug: null } }));
  expect(await getTodo(u, t.id)).toMatchObject({ groupId: null, groupSlug: null });
});

test("delete removes the todo and its messages; a body naming another todo is 400 and deletes nothing", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Doomed");
  await addMessage(u, t.id, { content: "one more", startProcessing: false });
  const other = await createTodo(u, p.id, "Survivor");

  await expectError(await u.session.delete(`/api/v1/todos/${t.id}`, { headers: h(u), data: { todoId: other.id } }), 400, "BAD_REQUEST");
  expect((await getTodo(u, t.id)).messages).toHaveLength(2);
  expect((await getTodo(u, other.id)).content).toBe("Survivor");

  await expectNull(await u.session.delete(`/api/v1/todos/${t.id}`, { headers: h(u), data: { todoId: t.id } }));
  await expectError(await u.session.get(`/api/v1/todos/${t.id}`, { headers: h(u) }), 404, "NOT_FOUND");
  await expectError(await u.session.get(`/api/v1/todos/${t.id}/messages`, { headers: h(u) }), 404, "NOT_FOUND");
  await expectError(await u.session.delete(`/api/v1/todos/${t.id}`, { headers: h(u) }), 404, "NOT_FOUND");
  expect((await listTodos(u, p.id)).items.map((x) => x.id)).toEqual([other.id]);
  expect((await getTodo(u, other.id)).messages).toHaveLength(1);
});

test("deleting the project deletes its todos and messages; nothing of them is readable afterwards", async ({ request }, info) => {
  const u = await createUser(info);
  const p = await createProject(u, "Going away");
  const t = await createTodo(u, p.id, "Inside");
  await addMessage(u, t.id, { content: "more", startProcessing: false });
  await expectNull(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } }));
  expect((await request.get(`/api/v1/public/todos/${t.id}`)).status()).toBe(200);

  await expectNull(await u.session.delete(`/api/v1/projects/${p.id}`, { headers: h(u) }));
  await expectError(await u.session.get(`/api/v1/todos/${t.id}`, { headers: h(u) }), 404, "NOT_FOUND");
  await expectError(await u.session.get(`/api/v1/todos/${t.id}/messages`, { headers: h(u) }), 404, "NOT_FOUND");
  await expectError(await request.get(`/api/v1/public/todos/${t.id}`), 404, "NOT_FOUND");
  await expectError(await u.session.get(`/api/v1/projects/${p.id}/todos`, { headers: h(u) }), 404, "NOT_FOUND");
  const pending = (await (await u.session.get("/api/v1/tasks/pending", { headers: h(u) })).json()) as { todoId: string }[];
  expect(pending.filter((x) => x.todoId === t.id)).toEqual([]);
});

test("messageLimit returns only the newest N messages and hasMoreMessages tells if older exist", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "m0");
  for (let i = 1; i <= 5; i++) await addMessage(u, t.id, { content: `m${i}`, startProcessing: false });

  const all = await getTodo(u, t.id);
  expect(all.messages.map((m) => m.content)).toEqual(["m0", "m1", "m2", "m3", "m4", "m5"]);
  expect(all.hasMoreMessages).toBe(false);

  const two = await getTodo(u, t.id, { messageLimit: 2 });
  expect(two.messages).toEqual(all.messages.slice(-2));
  expect(two.hasMoreMessages).toBe(true);
  expect(two.blocks).toEqual(two.messages.flatMap((m) => m.blocks));

  const five = await getTodo(u, t.id, { messageLimit: 5 });
  expect(five.messages.map((m) => m.content)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
  expect(five.hasMoreMessages).toBe(true);

  for (const n of [6, 50]) {
    const page = await getTodo(u, t.id, { messageLimit: n });
    expect(page.messages).toEqual(all.messages);
    expect(page.hasMoreMessages).toBe(false);
  }
});

test.describe("todo_list", () => {
  test("120 todos paged by cursor come back newest activity first, each exactly once", async ({}, info) => {
    const u = await createUser(info);
    const p = await createProject(u);
    const created: string[] = [];
    // Concurrent batches, so several todos are likely to share one lastActivityAt.
    for (let batch = 0; batch < 6; batch++) {
      const made = await Promise.all(Array.from({ length: 20 }, (_, i) => createTodo(u, p.id, `Todo ${batch * 20 + i}`)));
      created.push(...made.map((t) => t.id));
    }

    const limit = 7;
    const pages = await listAllPages(u, p.id, { limit });
    const items = pages.flatMap((pg) => pg.items);
    const ids = items.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...created].sort());

    for (let i = 1; i < items.length; i++) expect(items[i]!.lastActivityAt).toBeLessThanOrEqual(items[i - 1]!.lastActivityAt);

    pages.forEach((pg, i) => {
      expect(pg.items.length, `page ${i} is empty`).toBeGreaterThan(0);
      const stamps = new Set(pg.items.map((x) => x.lastActivityAt));
      // More than `limit` only when the page is one group of equal lastActivityAt.
      if (pg.items.length > limit) expect(stamps.size, `page ${i} holds ${pg.items.length} items over ${stamps.size} timestamps`).toBe(1);
      const last = pg.items.at(-1)!;
      if (i < pages.length - 1) {
        expect(pg.nextCursor).toBe(last.lastActivityAt);
        // A page never ends inside a group that shares one lastActivityAt.
        expect(pages[i + 1]!.items[0]!.lastActivityAt).toBeLessThan(last.lastActivityAt);
      } else {
        expect(pg.nextCursor).toBeNull();
      }
      for (const item of pg.items) {
        expect(item).not.toHaveProperty("messages");
        expect(item).not.toHaveProperty("blocks");
        expect(item).not.toHaveProperty("hasMoreMessages");
        expect(Number.isInteger(item.lastActivityAt)).toBe(true);
      }
    });
    const stamps = items.map((x) => x.lastActivityAt);
    const tieGroups = new Set(stamps.filter((s, i) => stamps.indexOf(s) !== i)).size;
    info.annotations.push({ type: "ties", description: `${tieGroups} lastActivityAt values shared by several todos, ${pages.length} pages` });

    // A limit over 200 is clamped, not refused: one page holds all 120, in the same order.
    const one = await listTodos(u, p.id, { limit: 500 });
    expect(one.items.map((x) => x.id)).toEqual(ids);
    expect(one.nextCursor).toBeNull();
  });

  test("invalid cursor or limit is 400; a missing project is 404", async ({}, info) => {
    const u = await createUser(info);
    const p = await createProject(u);
    await createTodo(u, p.id, "One");
    const get = (params: Record<string, string | number>) => u.session.get(`/api/v1/projects/${p.id}/todos`, { headers: h(u), params });
    await expectBadRequest(await get({ cursor: "yesterday" }), "query.cursor");
    await expectBadRequest(await get({ limit: 0 }), "query.limit");
    await expectBadRequest(await get({ limit: "ten" }), "query.limit");
    await expectError(await u.session.get(`/api/v1/projects/${MISSING_ID}/todos`, { headers: h(u) }), 404, "NOT_FOUND");
    // The default page holds it.
    const page = await listTodos(u, p.id);
    expect(page.items.map((x) => x.content)).toEqual(["One"]);
    expect(page.nextCursor).toBeNull();
  });

  test("filters: search by content (case-insensitive) or status name, agentSettingsId, businessContextId", async ({}, info) => {
    const u = await createUser(info);
    const p = await createProject(u);
    await createTodo(u, p.id, { content: "Buy MILK", agentSettingsId: "preset-a" });
    await createTodo(u, p.id, { content: "buy bread", businessContextId: "biz-1" });
    await createTodo(u, p.id, { content: "Walk the dog", scheduledAt: inOneHour() });
    const water = await createTodo(u, p.id, "Water plants");
    await setStatus(u, water.id, "complete");

    const contents = async (query: Record<string, string>) => (await listTodos(u, p.id, query)).items.map((x: TodoItem) => x.content).sort();
    expect(await contents({})).toEqual(["Buy MILK", "Walk the dog", "Water plants", "buy bread"]);
    expect(await contents({ search: "milk" })).toEqual(["Buy MILK"]);
    expect(await contents({ search: "BUY" })).toEqual(["Buy MILK", "buy bread"]);
    expect(await contents({ search: "scheduled" })).toEqual(["Walk the dog"]);
    expect(await contents({ search: "done" })).toEqual(["Water plants"]);
    expect(await contents({ search: "nothing like this" })).toEqual([]);
    expect(await contents({ agentSettingsId: "preset-a" })).toEqual(["Buy MILK"]);
    expect(await contents({ businessContextId: "biz-1" })).toEqual(["buy bread"]);
    expect(await contents({ businessContextId: "biz-none" })).toEqual([]);
    expect(await contents({ search: "bread", agentSettingsId: "preset-a" })).toEqual([]);
  });

  test("new activity moves a todo to the front", async ({}, info) => {
    const u = await createUser(info);
    const p = await createProject(u);
    const a = await createTodo(u, p.id, "A");
    await sleep(5);
    const b = await createTodo(u, p.id, "B");
    await sleep(5);
    const c = await createTodo(u, p.id, "C");
    expect((await listTodos(u, p.id)).items.map((x) => x.id)).toEqual([c.id, b.id, a.id]);

    await sleep(5);
    await addMessage(u, a.id, { content: "bump", startProcessing: false });
    const page = await listTodos(u, p.id);
    expect(page.items.map((x) => x.id)).toEqual([a.id, c.id, b.id]);
    expect(page.items[0]!.lastActivityAt).toBeGreaterThan(c.lastActivityAt);
  });
});

test("a public todo is readable without a credential on every base, only while isPublic", async ({ request }, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Share me");
  const missing = (await (await request.get(`/api/v1/public/todos/${MISSING_ID}`)).json()) as ErrorBody;
  expect(missing.code).toBe("NOT_FOUND");

  const privateRes = await request.get(`/api/v1/public/todos/${t.id}`);
  await expectError(privateRes, 404, "NOT_FOUND");
  expect(await privateRes.json()).toEqual(missing);

  await expectNull(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } }));
  for (const base of ["/api/v1", "/cookie/v1", "/dst/v1"]) {
    const res = await request.get(`${base}/public/todos/${t.id}`);
    expect(res.status(), `${base}: ${await res.text()}`).toBe(200);
    const pub = (await res.json()) as Todo;
    // Only the public fields (e2e/api/public-reads.spec.ts holds the whole allow-list).
    expect(pub).toMatchObject({ id: t.id, content: "Share me", status: "TODO" });
    expect(pub).not.toHaveProperty("isPublic");
    expect(pub.messages.map((m) => m.content)).toEqual(["Share me"]);
  }
  // Read-only: the public path has no write method.
  await expectError(await request.put(`/api/v1/public/todos/${t.id}`, { data: { content: "defaced" } }), 405, "METHOD_NOT_SUPPORTED");

  await expectNull(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: false } }));
  const again = await request.get(`/api/v1/public/todos/${t.id}`);
  await expectError(again, 404, "NOT_FOUND");
  expect(await again.json()).toEqual(missing);
  expect((await getTodo(u, t.id)).content).toBe("Share me");
});
