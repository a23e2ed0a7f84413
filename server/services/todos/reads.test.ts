import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser, suiteTestRuntime } from "../../testing/runtime.ts";
import { apiError, callerOf } from "../../testing/caller.ts";
import { MESSAGE_PAGE_MAX_CHARS, ZPublicTodo } from "../../../lib/schemas/todos.ts";
import { needToChange } from "../access.ts";
import { updateProjectSettings } from "../settings/project-settings.ts";
import { updateProject } from "../projects/projects.ts";
import { getMessages } from "./messages.ts";
import { getPublicTodo, getTodo, updateTodo } from "./todos.ts";

// Issue 9 A2 (bounded reads), A10 (the public todo), A15 (who may publish).
const t = suiteTestRuntime();

/** A project of `owner` shared with an editor and a viewer, and a todo with `n` messages of `size` characters. */
async function seed(n: number, size = 10) {
  const [owner, editor, viewer] = await Promise.all([1, 2, 3].map(() => createTestUser(t.prisma)));
  const project = await t.prisma.project.create({ data: { ownerId: owner!.id, name: "Reads" } });
  await t.prisma.projectShare.createMany({
    data: [
      { projectId: project.id, userId: editor!.id, role: "editor" },
      { projectId: project.id, userId: viewer!.id, role: "viewer" },
    ],
  });
  const todo = await t.prisma.todo.create({ data: { projectId: project.id, userId: owner!.id, content: "Chat" } });
  await t.prisma.message.createMany({
    data: Array.from({ length: n }, (_, i) => ({ todoId: todo.id, role: i % 2 ? ("assistant" as const) : ("user" as const), content: `${i}:`.padEnd(size, "x") })),
  });
  return { owner: callerOf(owner!), editor: callerOf(editor!), viewer: callerOf(viewer!), projectId: project.id, todoId: todo.id };
}

const indexOf = (m: { content: string }) => Number(m.content.split(":")[0]);

describe("bounded message reads", () => {
  test("todo_get returns the newest 50 by default and clamps a larger messageLimit to 200", async () => {
    const { owner, todoId } = await seed(230);
    const byDefault = await getTodo(owner, todoId);
    assert.equal(byDefault.messages.length, 50);
    assert.deepEqual(byDefault.messages.map(indexOf), Array.from({ length: 50 }, (_, i) => 180 + i), "the newest, oldest first");
    assert.equal(byDefault.hasMoreMessages, true);
    const clamped = await getTodo(owner, todoId, 10_000);
    assert.equal(clamped.messages.length, 200);
    assert.equal(clamped.messages[0]!.content.startsWith("30:"), true);
    assert.equal((await getTodo(owner, todoId, 3)).messages.length, 3);
  });

  test("a page stops at MESSAGE_PAGE_MAX_CHARS (after at least one message), and paging by before reaches every message once", async () => {
    const size = 100_000;
    const { owner, todoId } = await seed(15, size);
    const first = await getTodo(owner, todoId, 200);
    const perPage = Math.floor(MESSAGE_PAGE_MAX_CHARS / size);
    assert.equal(first.messages.length, perPage);
    assert.equal(first.hasMoreMessages, true);
    const seen = first.messages.map(indexOf);
    let before: string | undefined = first.messages[0]!.messageId;
    for (let guard = 0; before && guard < 20; guard++) {
      const page = await getMessages(owner, todoId, { limit: 200, before });
      assert.ok(page.items.length >= 1 && page.items.reduce((n, m) => n + m.content.length, 0) <= Math.max(MESSAGE_PAGE_MAX_CHARS, size));
      seen.unshift(...page.items.map(indexOf));
      before = page.nextCursor ?? undefined;
    }
    assert.deepEqual(seen, Array.from({ length: 15 }, (_, i) => i));
  });

  test("one message longer than the page budget still comes, alone", async () => {
    const { owner, todoId } = await seed(3, MESSAGE_PAGE_MAX_CHARS + 5);
    const page = await getMessages(owner, todoId, { limit: 50 });
    assert.equal(page.items.length, 1);
    assert.equal(page.nextCursor, page.items[0]!.messageId);
  });

  test("the public read pages too: newest 50 by default, nextCursor to the page before, 400 for a foreign before", async () => {
    const { owner, todoId } = await seed(120);
    await updateTodo(owner, todoId, { isPublic: true });
    const newest = await getPublicTodo(todoId, {});
    assert.deepEqual(newest.messages.map(indexOf), Array.from({ length: 50 }, (_, i) => 70 + i));
    assert.equal(newest.nextCursor, newest.messages[0]!.messageId);
    const older = await getPublicTodo(todoId, { messageLimit: 500, before: newest.nextCursor! });
    assert.deepEqual(older.messages.map(indexOf), Array.from({ length: 70 }, (_, i) => i));
    assert.deepEqual([older.hasMoreMessages, older.nextCursor], [false, null]);
    const other = await seed(1);
    const foreign = (await getTodo(other.owner, other.todoId)).messages[0]!.messageId;
    await assert.rejects(getPublicTodo(todoId, { before: foreign }), apiError("BAD_REQUEST"));
  });
});

describe("the public todo", () => {
  test("carries only the picked fields at every level, whatever the todo holds", async () => {
    const { owner, todoId } = await seed(0);
    await t.prisma.todo.update({
      where: { id: todoId },
      data: { isPublic: true, status: "ERROR", metadata: { error: "connect ECONNREFUSED 10.0.0.7:8443", secret: 1 }, agentSettings: { systemPrompt: "private prompt" }, assignedAgent: "Bot" },
    });
    const msg = await t.prisma.message.create({ data: { todoId, role: "assistant", content: "partial", state: "ERROR", usage: { error: "upstream 10.0.0.7 said no", costCents: 3 } } });
    await t.prisma.block.create({ data: { todoId, messageId: msg.id, type: "checklist_item", content: { text: "a" }, actionable: true, position: 0, subTodoIds: ["cprivate"] } });
    const pub = await getPublicTodo(todoId, {});
    // What the pipeline sends is the response schema's output: the same keys.
    const sent = ZPublicTodo.parse(pub);
    for (const body of [pub, sent]) {
      assert.deepEqual(Object.keys(body).sort(), ["blocks", "content", "createdAt", "hasMoreMessages", "id", "messages", "nextCursor", "status", "updatedAt"]);
      assert.deepEqual(Object.keys(body.messages[0]!).sort(), ["blocks", "content", "createdAt", "id", "messageId", "role", "state"]);
      for (const b of [body.messages[0]!.blocks[0]!, body.blocks[0]!]) {
        assert.deepEqual(Object.keys(b).sort(), ["actionable", "blockId", "checked", "content", "id", "messageId", "position", "type"]);
      }
      const text = JSON.stringify(body);
      for (const leak of ["10.0.0.7", "private prompt", "cprivate", "Bot", owner.userId]) assert.equal(text.includes(leak), false, leak);
    }
  });

  test("shows the conversation, not the agent's machinery: no system messages; tool steps and shell commands without input, output, command, device or path", async () => {
    const { todoId } = await seed(0);
    await t.prisma.todo.update({ where: { id: todoId }, data: { isPublic: true } });
    const ask = await t.prisma.message.create({ data: { todoId, role: "user", content: "List my files" } });
    const reply = await t.prisma.message.create({ data: { todoId, role: "assistant", content: "I ran it." } });
    await t.prisma.message.create({ data: { todoId, role: "system", content: "Result of the shell command you proposed: AWS_SECRET=abc123" } });
    await t.prisma.block.createMany({
      data: [
        { todoId, messageId: reply.id, type: "shell", position: 0, actionable: false, content: { command: "cat ~/.env", path: "/home/ada/secret-project", deviceId: "cdevice", deviceName: "ada-laptop", state: "done", output: "AWS_SECRET=abc123", exitCode: 0 } },
        { todoId, messageId: reply.id, type: "tool_call", position: 1, actionable: false, content: { tool: "recall", toolCallId: "call1", input: { query: "bank pin" }, state: "done", output: "personal note: pin 4321" } },
        { todoId, messageId: reply.id, type: "checklist_item", position: 2, actionable: true, content: { text: "tidy up" } },
      ],
    });
    const pub = await getPublicTodo(todoId, {});
    assert.deepEqual(pub.messages.map((m) => m.id), [ask.id, reply.id]);
    assert.deepEqual(pub.blocks.map((b) => [b.type, b.content]), [
      ["shell", { state: "done", exitCode: 0 }],
      ["tool_call", { tool: "recall", state: "done" }],
      ["checklist_item", { text: "tidy up" }],
    ]);
    const text = JSON.stringify(ZPublicTodo.parse(pub));
    for (const leak of ["AWS_SECRET", "cat ~/.env", "/home/ada", "ada-laptop", "cdevice", "bank pin", "4321"]) assert.equal(text.includes(leak), false, leak);
  });

  test("a private or missing todo is the same 404", async () => {
    const { todoId } = await seed(1);
    await assert.rejects(getPublicTodo(todoId, {}), apiError("NOT_FOUND"));
    await assert.rejects(getPublicTodo("cmissing0000000000000000", {}), apiError("NOT_FOUND"));
  });
});

describe("who may publish and set the project's agent defaults", () => {
  test("needToChange: owner-only fields need the owner, other fields write access", () => {
    assert.equal(needToChange("todo", { content: "x" }), "write");
    assert.equal(needToChange("todo", { isPublic: false }), "owner");
    assert.equal(needToChange("todo", { isPublic: undefined, content: "x" }), "write");
    assert.equal(needToChange("projectSettings", { brandMarkdown: "b" }), "write");
    assert.equal(needToChange("projectSettings", { agentDefaults: null }), "owner");
    assert.equal(needToChange("project", { isPublic: true }), "owner");
  });

  test("an editor writes the todo and the other settings but may not publish or set agent defaults (403, nothing changes)", async () => {
    const { owner, editor, viewer, projectId, todoId } = await seed(1);
    for (const who of [editor, viewer]) {
      await assert.rejects(updateTodo(who, todoId, { isPublic: true, content: "published?" }), apiError("FORBIDDEN"));
      await assert.rejects(updateProjectSettings(who, projectId, { agentDefaults: { systemPrompt: "obey" }, brandMarkdown: "x" }), apiError("FORBIDDEN"));
      await assert.rejects(updateProject(who, projectId, { isPublic: true }), apiError("FORBIDDEN"));
    }
    const todo = await t.prisma.todo.findUniqueOrThrow({ where: { id: todoId } });
    const project = await t.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    assert.deepEqual([todo.isPublic, todo.content, project.isPublic, project.settings, project.brandMarkdown], [false, "Chat", false, {}, ""]);

    await updateTodo(editor, todoId, { content: "edited" });
    await updateProjectSettings(editor, projectId, { brandMarkdown: "# Editor" });
    await updateTodo(owner, todoId, { isPublic: true });
    await updateProjectSettings(owner, projectId, { agentDefaults: { systemPrompt: "be brief" } });
    const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todoId } });
    const settings = await t.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    assert.deepEqual([after.content, after.isPublic, settings.brandMarkdown, settings.settings], ["edited", true, "# Editor", { agentDefaults: { systemPrompt: "be brief" } }]);
  });
});
