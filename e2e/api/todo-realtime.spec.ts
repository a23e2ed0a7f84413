import { expect, test } from "@playwright/test";
import { collect, connect, nextEvent } from "../support/sockets";
import { createUser } from "../support/users";
import {
  MISSING_ID,
  createProject,
  createTodo,
  expectError,
  getTodo,
  h,
  okJson,
  recordEvents,
  shareProject,
  subscribeTodo,
  waitForReply,
  type Envelope,
  type Message,
  type Todo,
} from "../support/todos";

test.describe.configure({ timeout: 120_000 });

const withoutWorkflow = ({ workflow: _w, ...rest }: Todo) => rest;
const mentions = (e: Envelope, id: string) => JSON.stringify(e.data).includes(id);

test("subscribe returns the full todo; then another client's message streams a turn to the socket", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Talk to me");
  const socket = await connect(u.baseURL, { token: u.apiKey });
  try {
    const rec = recordEvents(socket);
    const sub = await subscribeTodo(u, t.id, socket.id!);
    const full = await okJson<Todo>(sub);
    expect(withoutWorkflow(full)).toEqual(withoutWorkflow(await getTodo(u, t.id)));
    expect(full.messages.map((m) => m.content)).toEqual(["Talk to me"]);

    // Another client: the same user's browser session, through the cookie base.
    const sent = await okJson<Message>(await u.session.post(`/cookie/v1/todos/${t.id}/messages`, { data: { content: "Tell me something" } }));
    const done = await waitForReply(u, t.id);
    const reply = done.messages.at(-1)!;
    await expect.poll(() => rec.ofType("todo.status", t.id).map((e) => e.data.status), { timeout: 10_000 }).toContain("READY");

    for (const e of rec.events.filter((x) => x.todoId === t.id)) {
      expect(typeof e.id).toBe("string");
      expect(Number.isInteger(e.at)).toBe(true);
      expect(e.projectId).toBe(p.id);
    }
    const created = rec.ofType("message.created", t.id);
    expect(created.some((e) => mentions(e, sent.messageId)), JSON.stringify(created)).toBe(true);

    const statuses = rec.ofType("todo.status", t.id).map((e) => e.data);
    expect(statuses).toEqual([
      { status: "RUNNING", previous: "TODO" },
      { status: "READY", previous: "RUNNING" },
    ]);

    const deltas = rec.ofType("message.delta", t.id) as Envelope<{ messageId: string; delta: string }>[];
    expect(deltas.length, "the reply streams in several steps").toBeGreaterThanOrEqual(2);
    for (const d of deltas) expect(d.data.messageId).toBe(reply.messageId);
    expect(deltas.map((d) => d.data.delta).join("")).toBe(reply.content);
    // Streamed while the agent wrote: every delta came before the turn ended.
    const readyAt = rec.events.findIndex((e) => e.type === "todo.status" && e.todoId === t.id && e.data.status === "READY");
    const lastDelta = rec.events.findLastIndex((e) => e.type === "message.delta" && e.todoId === t.id);
    expect(lastDelta).toBeLessThan(readyAt);
  } finally {
    socket.disconnect();
  }
});

test("block.updated, todo.status, todo.updated and todo.deleted reach a viewer's socket for an editor's changes", async ({}, info) => {
  const [owner, editor, viewer] = await Promise.all(["owner", "editor", "viewer"].map((tag) => createUser(info, tag)));
  const p = await createProject(owner!);
  await shareProject(owner!, p.id, editor!.email, "editor");
  await shareProject(owner!, p.id, viewer!.email, "viewer");
  const t = await createTodo(owner!, p.id, { content: "Errands:\n- Bank\n- Post office", startProcessing: true });
  const ready = await waitForReply(owner!, t.id);
  const block = ready.blocks.find((b) => b.actionable)!;
  expect(block).toBeTruthy();
  const sub = await createTodo(owner!, p.id, "Sub-run");

  const socket = await connect(viewer!.baseURL, { token: viewer!.apiKey });
  try {
    const full = await okJson<Todo>(await subscribeTodo(viewer!, t.id, socket.id!));
    expect(full.id).toBe(t.id);
    expect(full.blocks.map((b) => b.blockId)).toContain(block.blockId);

    const checked = nextEvent<Envelope>(socket, "block.updated", (e) => e.todoId === t.id && mentions(e, block.blockId));
    expect((await editor!.session.post(`/api/v1/todos/${t.id}/blocks/${block.blockId}/checked`, { headers: h(editor!), data: {} })).status()).toBe(200);
    expect((await checked).projectId).toBe(p.id);

    const linked = nextEvent<Envelope>(socket, "block.updated", (e) => e.todoId === t.id && mentions(e, sub.id));
    expect((await editor!.session.post(`/api/v1/todos/${t.id}/blocks/${block.blockId}/subtodo`, { headers: h(editor!), data: { subTodoIds: [sub.id] } })).status()).toBe(200);
    await linked;

    const updated = nextEvent<Envelope>(socket, "todo.updated", (e) => e.todoId === t.id);
    expect((await editor!.session.put(`/api/v1/todos/${t.id}`, { headers: h(editor!), data: { content: "Errands (today)" } })).status()).toBe(200);
    await updated;

    const status = nextEvent<Envelope>(socket, "todo.status", (e) => e.todoId === t.id);
    expect((await editor!.session.patch(`/api/v1/todos/${t.id}/status`, { headers: h(editor!), data: { action: "complete" } })).status()).toBe(200);
    expect((await status).data).toEqual({ status: "DONE", previous: "READY" });

    const deleted = nextEvent<Envelope>(socket, "todo.deleted", (e) => e.todoId === t.id);
    expect((await editor!.session.delete(`/api/v1/todos/${t.id}`, { headers: h(editor!) })).status()).toBe(200);
    expect((await deleted).projectId).toBe(p.id);
  } finally {
    socket.disconnect();
  }
});

test("subscribe is refused like the read: a stranger gets 404 and hears nothing; a socket is required", async ({}, info) => {
  const owner = await createUser(info, "owner");
  const stranger = await createUser(info, "stranger");
  const p = await createProject(owner);
  const t = await createTodo(owner, p.id, "Private talk");
  const strangerSocket = await connect(stranger.baseURL, { token: stranger.apiKey });
  const ownerSocket = await connect(owner.baseURL, { token: owner.apiKey });
  try {
    const refused = await subscribeTodo(stranger, t.id, strangerSocket.id!);
    const missing = await subscribeTodo(stranger, MISSING_ID, strangerSocket.id!);
    expect(await expectError(refused, 404, "NOT_FOUND")).toEqual(await missing.json());

    const none = await owner.session.post(`/api/v1/todos/${t.id}/subscribe`, { headers: h(owner) });
    const body = await expectError(none, 400, "BAD_REQUEST");
    expect(body.data?.issues?.[0]?.path).toBe("header.x-socket-id");
    await expectError(await subscribeTodo(owner, t.id, strangerSocket.id!), 400, "BAD_REQUEST");
    // The socket id may come in the body instead.
    const viaBody = await owner.session.post(`/api/v1/todos/${t.id}/subscribe`, { headers: h(owner), data: { todoId: t.id, socketId: ownerSocket.id } });
    expect((await okJson<Todo>(viaBody)).id).toBe(t.id);

    const leaked = Promise.all(["message.created", "message.delta", "todo.status"].map((type) => collect(strangerSocket, type, 2500)));
    const heard = nextEvent<Envelope>(ownerSocket, "todo.status", (e) => e.todoId === t.id);
    expect((await owner.session.post(`/api/v1/todos/${t.id}/messages`, { headers: h(owner), data: { content: "Secret plans" } })).status()).toBe(200);
    await heard;
    expect((await leaked).flat()).toEqual([]);
  } finally {
    strangerSocket.disconnect();
    ownerSocket.disconnect();
  }
});

test("project subscribers hear todo.created and todo.status for the project's todos", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const socket = await connect(u.baseURL, { token: u.apiKey });
  try {
    const sub = await u.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: { ...h(u), "x-socket-id": socket.id! } });
    expect(sub.status(), await sub.text()).toBe(200);
    const rec = recordEvents(socket);
    const t = await createTodo(u, p.id, { content: "Announce me", startProcessing: true });
    await waitForReply(u, t.id);
    await expect.poll(() => rec.ofType("todo.status", t.id).map((e) => e.data.status), { timeout: 10_000 }).toContain("READY");
    const created = rec.ofType("todo.created", t.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.projectId).toBe(p.id);
    // Created RUNNING (whether that creation also counts as a status change is left open).
    expect(rec.ofType("todo.status", t.id).map((e) => e.data)).toContainEqual({ status: "READY", previous: "RUNNING" });
  } finally {
    socket.disconnect();
  }
});

test("with Redis, a turn started through one server process streams to a client on another", async ({}, info) => {
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  test.skip(!peerUrl, "this project runs a single server process");
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Across processes");
  const socket = await connect(peerUrl!, { token: u.apiKey });
  try {
    const rec = recordEvents(socket);
    expect((await okJson<Todo>(await subscribeTodo(u, t.id, socket.id!))).id).toBe(t.id);
    expect((await u.session.post(`/api/v1/todos/${t.id}/messages`, { headers: h(u), data: { content: "Hello from afar" } })).status()).toBe(200);
    const done = await waitForReply(u, t.id);
    await expect.poll(() => rec.ofType("todo.status", t.id).map((e) => e.data.status), { timeout: 10_000 }).toContain("READY");
    expect(rec.ofType("message.created", t.id).length).toBeGreaterThan(0);
    const deltas = rec.ofType("message.delta", t.id) as Envelope<{ messageId: string; delta: string }>[];
    expect(deltas.map((d) => d.data.delta).join("")).toBe(done.messages.at(-1)!.content);
  } finally {
    socket.disconnect();
  }
});
