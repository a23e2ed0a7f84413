import { expect, test } from "@playwright/test";
import { createUser } from "../support/users";
import {
  TURN_TIMEOUT,
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
  inOneHour,
  sleep,
  todoIn,
  waitForReply,
  waitForStatus,
  type Message,
} from "../support/todos";

test.describe.configure({ timeout: 120_000 });

test("an immediate message on a TODO todo starts a turn, and on a READY todo the next one", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Plan the week");
  expect(t.status).toBe("TODO");

  const m = await addMessage(u, t.id, { content: "Start with Monday" });
  expect(m).toMatchObject({ todoId: t.id, role: "user", content: "Start with Monday", scheduledAt: null, blocks: [] });
  expect(m.messageId).toBe(m.id);
  expect(Number.isInteger(m.createdAt)).toBe(true);
  // Its state while the turn picks it up (PENDING, PROCESSING or DONE) is left open; it is not scheduled.
  expect(m.state).not.toBe("SCHEDULED");

  const first = await waitForReply(u, t.id);
  expect(first.messages.map((x) => [x.role, x.role === "user" ? x.content : ""])).toEqual([
    ["user", "Plan the week"],
    ["user", "Start with Monday"],
    ["assistant", ""],
  ]);

  await addMessage(u, t.id, { content: "Now Tuesday" });
  await expect.poll(async () => (await getTodo(u, t.id)).messages.filter((x) => x.role === "assistant").length, { timeout: TURN_TIMEOUT }).toBe(2);
  const second = await waitForReply(u, t.id);
  expect(second.messages.map((x) => x.role)).toEqual(["user", "user", "assistant", "user", "assistant"]);
  expect(second.messages[3]!.content).toBe("Now Tuesday");
});

test("a message with a future scheduledAt is SCHEDULED and makes the todo SCHEDULED", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Remind me");
  const at = inOneHour();
  const m = await addMessage(u, t.id, { content: "Tomorrow morning", scheduledAt: at });
  expect(m).toMatchObject({ role: "user", content: "Tomorrow morning", state: "SCHEDULED", scheduledAt: at });
  const after = await getTodo(u, t.id);
  expect(after.status).toBe("SCHEDULED");
  expect(after.messages.at(-1)).toMatchObject({ messageId: m.messageId, state: "SCHEDULED", scheduledAt: at });
  expect(after.messages.some((x) => x.role === "assistant")).toBe(false);
});

test("on a SCHEDULED or PAUSED todo an immediate message waits as PENDING", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  for (const status of ["SCHEDULED", "PAUSED"] as const) {
    const t = await todoIn(u, p.id, status);
    expect(t.status).toBe(status);
    const m = await addMessage(u, t.id, { content: `while ${status}` });
    expect(m).toMatchObject({ role: "user", content: `while ${status}`, state: "PENDING" });
    await sleep(1000);
    const after = await getTodo(u, t.id);
    expect(after.status).toBe(status);
    expect(after.messages.find((x) => x.messageId === m.messageId)?.state).toBe("PENDING");
    expect(after.messages.some((x) => x.role === "assistant")).toBe(false);
  }
});

test("messages cannot be added to CANCELLED or PROPOSED todos (409); bad input is 400", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  for (const status of ["CANCELLED", "PROPOSED"] as const) {
    const t = await todoIn(u, p.id, status);
    await expectError(await addMessageRaw(u, t.id, { content: "hello?" }), 409, "CONFLICT");
    await expectError(await addMessageRaw(u, t.id, { content: "hello?", startProcessing: false }), 409, "CONFLICT");
    const after = await getTodo(u, t.id);
    expect(after.status).toBe(status);
    expect(after.messages).toEqual(t.messages);
  }
  const t = await createTodo(u, p.id, "Valid");
  await expectBadRequest(await u.session.post(`/api/v1/todos/${t.id}/messages`, { headers: h(u), data: {} }), "body.content");
  await expectBadRequest(await u.session.post(`/api/v1/todos/${t.id}/messages`, { headers: h(u), data: { content: "x", scheduledAt: "soon" } }), "body.scheduledAt");
  expect((await getTodo(u, t.id)).messages).toHaveLength(1);
  await expectError(await addMessageRaw(u, "cmissingtodoid00000000000", { content: "x" }), 404, "NOT_FOUND");
});

test("a scheduled message can be edited until it starts; afterwards the edit is 409", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Newsletter");
  const m = await addMessage(u, t.id, { content: "Draft it", scheduledAt: inOneHour() });
  const patch = (messageId: string, data: unknown) => u.session.patch(`/api/v1/todos/${t.id}/messages/${messageId}`, { headers: h(u), data });

  const later = inOneHour() + 60_000;
  await expectNull(await patch(m.messageId, { content: "Draft it well", scheduledAt: later }));
  let msgs = (await getMessages(u, t.id)).items;
  expect(msgs.find((x) => x.messageId === m.messageId)).toMatchObject({ content: "Draft it well", scheduledAt: later, state: "SCHEDULED" });
  await expectBadRequest(await patch(m.messageId, { scheduledAt: "soon" }), "body.scheduledAt");

  // The first message never was SCHEDULED: 409. An unknown message is 404.
  await expectError(await patch(t.messages[0]!.messageId, { content: "rewrite history" }), 409, "CONFLICT");
  await expectError(await patch("cmissingmessage0000000000", { content: "x" }), 404, "NOT_FOUND");

  // Start it now: from then on it is no longer editable.
  await expectNull(await u.session.post(`/api/v1/todos/${t.id}/update-start`, { headers: h(u), data: { messageId: m.messageId, content: "Draft it now" } }));
  const done = await waitForReply(u, t.id);
  const started = done.messages.find((x) => x.messageId === m.messageId)!;
  expect(started.content).toBe("Draft it now");
  expect(started.state).not.toBe("SCHEDULED");
  await expectError(await patch(m.messageId, { content: "too late" }), 409, "CONFLICT");
  const reply = done.messages.at(-1)!;
  await expectError(await patch(reply.messageId, { content: "not yours" }), 409, "CONFLICT");

  msgs = (await getMessages(u, t.id)).items;
  expect(msgs.find((x) => x.messageId === m.messageId)!.content).toBe("Draft it now");
  expect(msgs.find((x) => x.messageId === reply.messageId)!.content).toBe(reply.content);
});

test("update-start edits a PENDING message and starts a turn now; other messages are 409", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await todoIn(u, p.id, "SCHEDULED", "Weekly report");
  const scheduled = t.messages[0]!;
  expect(scheduled.state).toBe("SCHEDULED");
  const pending = await addMessage(u, t.id, { content: "Include sales" });
  expect(pending.state).toBe("PENDING");
  const start = (data: unknown) => u.session.post(`/api/v1/todos/${t.id}/update-start`, { headers: h(u), data });

  await expectBadRequest(await start({ messageId: pending.messageId }), "body.content");
  await expectNull(await start({ messageId: pending.messageId, content: "Include sales and costs" }));
  await expect
    .poll(async () => (await getTodo(u, t.id)).messages.some((x) => x.role === "assistant" && x.state === "DONE"), { timeout: TURN_TIMEOUT })
    .toBe(true);
  const after = await waitForStatus(u, t.id, ["READY", "SCHEDULED"]);
  const edited = after.messages.find((x) => x.messageId === pending.messageId)!;
  expect(edited.content).toBe("Include sales and costs");
  expect(edited.state).not.toBe("PENDING");
  // The other message keeps its own schedule.
  expect(after.messages.find((x) => x.messageId === scheduled.messageId)).toMatchObject({ state: "SCHEDULED", scheduledAt: scheduled.scheduledAt });

  // A message that already ran, and an assistant message, cannot be restarted.
  await expectError(await start({ messageId: pending.messageId, content: "again" }), 409, "CONFLICT");
  const reply = after.messages.find((x) => x.role === "assistant")!;
  await expectError(await start({ messageId: reply.messageId, content: "again" }), 409, "CONFLICT");
  expect((await getTodo(u, t.id)).messages.find((x) => x.messageId === pending.messageId)!.content).toBe("Include sales and costs");
});

test("getMessages pages back with before, each page in chat order", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "c0");
  for (let i = 1; i <= 6; i++) await addMessage(u, t.id, { content: `c${i}`, startProcessing: false });
  const all = (await getTodo(u, t.id)).messages;
  expect(all.map((m) => m.content)).toEqual(["c0", "c1", "c2", "c3", "c4", "c5", "c6"]);

  const full = await getMessages(u, t.id);
  expect(full.items).toEqual(all);
  expect(full.nextCursor).toBeNull();

  const seen: Message[][] = [];
  let before: string | null = null;
  for (let i = 0; i < 10; i++) {
    const page = await getMessages(u, t.id, before === null ? { limit: 3 } : { limit: 3, before });
    seen.push(page.items);
    if (page.nextCursor === null) break;
    // nextCursor is the oldest loaded messageId, the value to pass as `before`.
    expect(page.nextCursor).toBe(page.items[0]!.messageId);
    before = page.nextCursor;
  }
  expect(seen.map((pg) => pg.map((m) => m.content))).toEqual([["c4", "c5", "c6"], ["c1", "c2", "c3"], ["c0"]]);
  expect(seen.reverse().flat()).toEqual(all);

  await expectBadRequest(await u.session.get(`/api/v1/todos/${t.id}/messages`, { headers: h(u), params: { limit: 0 } }), "query.limit");
});

test("a scheduled message starts by itself when it is due", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Soon");
  const m = await addMessage(u, t.id, { content: "Go in a moment", scheduledAt: Date.now() + 1500 });
  expect(m.state).toBe("SCHEDULED");
  expect((await getTodo(u, t.id)).status).toBe("SCHEDULED");

  await expect
    .poll(async () => (await getTodo(u, t.id)).messages.some((x) => x.role === "assistant" && x.state === "DONE"), { timeout: 45_000 })
    .toBe(true);
  const done = await waitForReply(u, t.id);
  expect(done.messages.find((x) => x.messageId === m.messageId)!.state).not.toBe("SCHEDULED");
  await expectError(await u.session.patch(`/api/v1/todos/${t.id}/messages/${m.messageId}`, { headers: h(u), data: { content: "late" } }), 409, "CONFLICT");
});
