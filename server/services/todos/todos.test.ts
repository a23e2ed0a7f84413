import { test } from "node:test";
import assert from "node:assert/strict";
import type { Caller } from "../../auth/caller.ts";
import { createTestUser, suiteTestRuntime } from "../../testing/runtime.ts";
import { createTodo, listTodos } from "./todos.ts";

const t = suiteTestRuntime();

async function seed(n: number, timeOf: (i: number) => number) {
  const user = await createTestUser(t.prisma);
  const caller: Caller = { credential: "apiKey", userId: user.id, email: user.email, name: null, isAdmin: false };
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Paging" } });
  await t.prisma.todo.createMany({
    data: Array.from({ length: n }, (_, i) => ({ projectId: project.id, userId: user.id, content: `todo ${i}`, lastActivityAt: new Date(timeOf(i)) })),
  });
  return { caller, projectId: project.id };
}

async function pageAll(caller: Caller, projectId: string, limit: number) {
  const seen: { id: string; lastActivityAt: number }[] = [];
  const sizes: number[] = [];
  let cursor: number | undefined;
  for (let guard = 0; guard < 500; guard++) {
    const page = await listTodos(caller, projectId, { limit, cursor });
    sizes.push(page.items.length);
    seen.push(...page.items.map((i) => ({ id: i.id, lastActivityAt: i.lastActivityAt })));
    if (page.nextCursor === null) return { seen, sizes };
    assert.equal(page.nextCursor, page.items.at(-1)!.lastActivityAt, "the cursor is the last item's lastActivityAt");
    cursor = page.nextCursor;
  }
  throw new Error("paging did not end");
}

test("120 todos with many shared lastActivityAt values: each exactly once, newest first", async () => {
  // Groups of 1 to 9 todos share a timestamp; page size 7 makes groups straddle page ends.
  const base = Date.UTC(2026, 0, 1);
  const { caller, projectId } = await seed(120, (i) => base + Math.floor(i / ((i % 9) + 1)) * 1000);
  const { seen, sizes } = await pageAll(caller, projectId, 7);
  assert.equal(seen.length, 120);
  assert.equal(new Set(seen.map((s) => s.id)).size, 120);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i - 1]!.lastActivityAt >= seen[i]!.lastActivityAt, "non-increasing");
  assert.ok(sizes.every((s) => s > 0));
});

test("a tie group larger than the page comes whole, and paging goes on after it", async () => {
  const base = Date.UTC(2026, 0, 2);
  // 3 newest, then 12 sharing one instant, then 5 older.
  const { caller, projectId } = await seed(20, (i) => (i < 5 ? base + i : i < 17 ? base + 100 : base + 200 + i));
  const first = await listTodos(caller, projectId, { limit: 5 });
  assert.equal(first.items.length, 3);
  const second = await listTodos(caller, projectId, { limit: 5, cursor: first.nextCursor! });
  assert.equal(second.items.length, 12);
  assert.ok(second.items.every((i) => i.lastActivityAt === base + 100));
  const third = await listTodos(caller, projectId, { limit: 5, cursor: second.nextCursor! });
  assert.equal(third.items.length, 5);
  assert.equal(third.nextCursor, null);
});

test("search matches content case-insensitively or a status name; filters narrow", async () => {
  const { caller, projectId } = await seed(4, (i) => Date.UTC(2026, 0, 3) + i);
  await t.prisma.todo.updateMany({ where: { projectId, content: "todo 1" }, data: { status: "READY", agentSettingsId: "fast" } });
  await t.prisma.todo.updateMany({ where: { projectId, content: "todo 2" }, data: { businessContextId: "acme" } });
  assert.deepEqual((await listTodos(caller, projectId, { limit: 50, search: "TODO 3" })).items.map((i) => i.content), ["todo 3"]);
  assert.deepEqual((await listTodos(caller, projectId, { limit: 50, search: "ready" })).items.map((i) => i.content), ["todo 1"]);
  assert.deepEqual((await listTodos(caller, projectId, { limit: 50, agentSettingsId: "fast" })).items.map((i) => i.content), ["todo 1"]);
  assert.deepEqual((await listTodos(caller, projectId, { limit: 50, businessContextId: "acme" })).items.map((i) => i.content), ["todo 2"]);
});

test("a new todo takes the project's default group and the nearest agent defaults", async () => {
  const { caller, projectId } = await seed(0, () => 0);
  await t.prisma.todoGroup.create({ data: { projectId, slug: "inbox", name: "Inbox" } });
  await t.prisma.project.update({ where: { id: projectId }, data: { settings: { defaultGroupSlug: "inbox", agentDefaults: { model: "project-model" } } } });
  const fromProject = await createTodo(caller, projectId, { content: "a", startProcessing: false });
  assert.equal(fromProject.groupSlug, "inbox");
  assert.equal(fromProject.agentSettings?.model, "project-model");

  await t.prisma.projectAgentMapping.create({ data: { userId: caller.userId, projectId, settings: { model: "my-model" } } });
  assert.equal((await createTodo(caller, projectId, { content: "b", startProcessing: false })).agentSettings?.model, "my-model");
  const explicit = await createTodo(caller, projectId, { content: "c", startProcessing: false, agentSettings: { model: "gpt-4o-mini" }, groupSlug: undefined });
  assert.equal(explicit.agentSettings?.model, "gpt-4o-mini");

  // A default group that was renamed away is skipped, not an error.
  await t.prisma.todoGroup.deleteMany({ where: { projectId } });
  assert.equal((await createTodo(caller, projectId, { content: "d", startProcessing: false })).groupSlug, null);
});

test("todo_update's todo.updated event carries the group the todo is in: kept, moved, removed", async () => {
  const { updateTodo } = await import("./todos.ts");
  const user = await createTestUser(t.prisma);
  const caller: Caller = { credential: "apiKey", userId: user.id, email: user.email, name: null, isAdmin: false };
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Groups" } });
  const [a] = await Promise.all(["alpha", "beta"].map((slug) => t.prisma.todoGroup.create({ data: { projectId: project.id, slug, name: slug } })));
  const todo = await t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "x", groupId: a!.id } });
  const seen: (string | null)[] = [];
  const stop = t.runtime.bus.subscribe((e) => {
    if (e.type === "todo.updated" && e.todoId === todo.id) seen.push((e.data as { groupSlug: string | null }).groupSlug);
  });
  try {
    await updateTodo(caller, todo.id, { content: "kept" });
    await updateTodo(caller, todo.id, { groupSlug: "beta" });
    await updateTodo(caller, todo.id, { groupSlug: null });
    await updateTodo(caller, todo.id, { content: "still none" });
    assert.deepEqual(seen, ["alpha", "beta", null, null]);
  } finally {
    stop();
  }
});

test("todo_update checks access in its own write: 404 for a stranger, 403 for a viewer and for an editor publishing, and nothing changes", async () => {
  const { updateTodo } = await import("./todos.ts");
  const { ApiError } = await import("../../http/errors.ts");
  const callerOf = (u: { id: string; email: string }): Caller => ({ credential: "apiKey", userId: u.id, email: u.email, name: null, isAdmin: false });
  const [owner, editor, viewer, stranger] = await Promise.all([0, 1, 2, 3].map(() => createTestUser(t.prisma)));
  const project = await t.prisma.project.create({ data: { ownerId: owner!.id, name: "Writes" } });
  await t.prisma.projectShare.createMany({
    data: [
      { projectId: project.id, userId: editor!.id, role: "editor" },
      { projectId: project.id, userId: viewer!.id, role: "viewer" },
    ],
  });
  const todo = await t.prisma.todo.create({ data: { projectId: project.id, userId: owner!.id, content: "before" } });
  const status = async (run: () => Promise<unknown>) => {
    try {
      await run();
      return 200;
    } catch (err) {
      if (err instanceof ApiError) return err.status;
      throw err;
    }
  };
  const row = () => t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, select: { content: true, isPublic: true, updatedAt: true } });
  const untouched = await row();
  assert.equal(await status(() => updateTodo(callerOf(stranger!), todo.id, { content: "stranger" })), 404);
  assert.equal(await status(() => updateTodo(callerOf(viewer!), todo.id, { content: "viewer" })), 403);
  assert.equal(await status(() => updateTodo(callerOf(editor!), todo.id, { isPublic: true })), 403);
  assert.equal(await status(() => updateTodo(callerOf(owner!), "no-such-todo", { content: "x" })), 404);
  assert.deepEqual(await row(), untouched);
  assert.equal(await status(() => updateTodo(callerOf(editor!), todo.id, { content: "by the editor" })), 200);
  assert.equal(await status(() => updateTodo(callerOf(owner!), todo.id, { isPublic: true })), 200);
  const after = await row();
  assert.equal(after.content, "by the editor");
  assert.equal(after.isPublic, true);
  assert.ok(after.updatedAt > untouched.updatedAt);
});

test("search matches the text as typed: % and _ are not wildcards, a backslash is itself", async () => {
  const user = await createTestUser(t.prisma);
  const caller: Caller = { credential: "apiKey", userId: user.id, email: user.email, name: null, isAdmin: false };
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Search" } });
  const contents = ["50% done", "500 done", "a_b", "axb", "back\\slash", "backslash"];
  await t.prisma.todo.createMany({ data: contents.map((content) => ({ projectId: project.id, userId: user.id, content })) });
  const found = async (search: string) => (await listTodos(caller, project.id, { limit: 50, search })).items.map((i) => i.content).sort();
  assert.deepEqual(await found("%"), ["50% done"]);
  assert.deepEqual(await found("0%"), ["50% done"]);
  assert.deepEqual(await found("_"), ["a_b"]);
  assert.deepEqual(await found("A_B"), ["a_b"], "still case-insensitive");
  assert.deepEqual(await found("\\"), ["back\\slash"]);
  assert.deepEqual(await found("done"), ["50% done", "500 done"]);
});

test("a todo's new text reaches its first message while that waits with the old text; a message that ran or was edited itself stays", async () => {
  const { updateTodo } = await import("./todos.ts");
  const user = await createTestUser(t.prisma);
  const caller: Caller = { credential: "apiKey", userId: user.id, email: user.email, name: null, isAdmin: false };
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Texts" } });
  const firstOf = async (todoId: string) => (await t.prisma.message.findFirst({ where: { todoId }, orderBy: { createdAt: "asc" } }))!;
  const updatedMessages: string[] = [];
  const stop = t.runtime.bus.subscribe((e) => {
    if (e.type === "message.updated") updatedMessages.push((e.data as { content: string }).content);
  });
  try {
    // Waiting (PENDING): it follows, and says so live.
    const waiting = await createTodo(caller, project.id, { content: "Buy milk", startProcessing: false });
    await updateTodo(caller, waiting.id, { content: "Buy oat milk" });
    assert.equal((await firstOf(waiting.id)).content, "Buy oat milk");
    assert.deepEqual(updatedMessages, ["Buy oat milk"]);
    // Scheduled for later: it follows too, and keeps its time.
    const at = Date.now() + 3_600_000;
    const scheduled = await createTodo(caller, project.id, { content: "Call Ann", scheduledAt: at, startProcessing: false });
    await updateTodo(caller, scheduled.id, { content: "Call Ann at noon" });
    const moved = await firstOf(scheduled.id);
    assert.deepEqual([moved.content, moved.state, moved.scheduledAt?.getTime()], ["Call Ann at noon", "SCHEDULED", at]);
    // Already taken by the agent: what it worked on stays.
    const ran = await createTodo(caller, project.id, { content: "Plan the trip", startProcessing: false });
    await t.prisma.message.updateMany({ where: { todoId: ran.id }, data: { state: "DONE" } });
    await updateTodo(caller, ran.id, { content: "Plan the long trip" });
    assert.equal((await firstOf(ran.id)).content, "Plan the trip");
    // Its own text edited apart from the todo's: the message says something else, and keeps it.
    const own = await createTodo(caller, project.id, { content: "Write notes", startProcessing: false });
    await t.prisma.message.updateMany({ where: { todoId: own.id }, data: { content: "Write the meeting notes, short" } });
    await updateTodo(caller, own.id, { content: "Write notes today" });
    assert.equal((await firstOf(own.id)).content, "Write the meeting notes, short");
    // An unchanged text changes nothing.
    await updateTodo(caller, waiting.id, { content: "Buy oat milk" });
    assert.deepEqual(updatedMessages, ["Buy oat milk", "Call Ann at noon"]);
  } finally {
    stop();
  }
});
