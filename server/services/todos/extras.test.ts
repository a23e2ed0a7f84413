import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser, suiteTestRuntime } from "../../testing/runtime.ts";
import { callerOf } from "../../testing/caller.ts";
import { ZPendingTask } from "../../../lib/schemas/todos.ts";
import { pendingTasks } from "./extras.ts";

const t = suiteTestRuntime();

describe("task_getPending", () => {
  test("scheduled messages soonest first, then proposed todos oldest first, each with its project's name, the todo's content and the message's text as previews; only the caller's own", async () => {
    const [owner, editor] = await Promise.all([createTestUser(t.prisma), createTestUser(t.prisma)]);
    const project = await t.prisma.project.create({ data: { ownerId: owner.id, name: "Launch" } });
    const other = await t.prisma.project.create({ data: { ownerId: owner.id, name: "Home" } });
    await t.prisma.projectShare.create({ data: { projectId: project.id, userId: editor.id, role: "editor" } });
    const now = Date.now();
    const long = `${"a".repeat(199)}😀 and more`; // the 200th unit is half of an emoji
    const later = await t.prisma.todo.create({ data: { projectId: project.id, userId: owner.id, content: "Write the post", status: "SCHEDULED" } });
    const sooner = await t.prisma.todo.create({ data: { projectId: other.id, userId: owner.id, content: long, status: "SCHEDULED" } });
    const laterMessage = await t.prisma.message.create({ data: { todoId: later.id, role: "user", content: "Publish it", state: "SCHEDULED", scheduledAt: new Date(now + 7_200_000) } });
    const soonerMessage = await t.prisma.message.create({ data: { todoId: sooner.id, role: "user", content: "x".repeat(600), state: "SCHEDULED", scheduledAt: new Date(now + 60_000) } });
    await t.prisma.message.create({ data: { todoId: later.id, role: "user", content: "Already sent" } });
    const proposed = await t.prisma.todo.create({ data: { projectId: project.id, userId: owner.id, content: "Maybe: a newsletter", status: "PROPOSED" } });
    // The editor's own proposal in the owner's project is the editor's task, not the owner's.
    const editorsOwn = await t.prisma.todo.create({ data: { projectId: project.id, userId: editor.id, content: "Editor's idea", status: "PROPOSED" } });

    const tasks = await pendingTasks(callerOf(owner));
    for (const task of tasks) ZPendingTask.parse(task);
    assert.deepEqual(
      tasks.map((x) => [x.kind, x.todoId, x.messageId, x.projectName]),
      [
        ["scheduled_message", sooner.id, soonerMessage.id, "Home"],
        ["scheduled_message", later.id, laterMessage.id, "Launch"],
        ["proposed_todo", proposed.id, null, "Launch"],
      ],
    );
    assert.equal(tasks[0]!.todoContent, "a".repeat(199), "cut at 200 units without half an emoji");
    assert.equal(tasks[0]!.messageContent, "x".repeat(500));
    assert.equal(tasks[1]!.todoContent, "Write the post");
    assert.equal(tasks[1]!.messageContent, "Publish it");
    assert.equal(tasks[2]!.messageContent, null);
    assert.equal(tasks[2]!.dueAt, null);
    assert.deepEqual((await pendingTasks(callerOf(editor))).map((x) => x.todoId), [editorsOwn.id]);
  });
});
