import type { Caller } from "../../auth/caller.ts";
import type { TAgentSettings } from "../../../lib/schemas/agent.ts";
import { epochMs, epochMsOrNull } from "../../../lib/schemas/common.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { checkAgentSettings } from "../../agent/policy.ts";
import { notFound } from "../../http/errors.ts";
import { joinRoom } from "../../realtime/sockets.ts";
import { db, runtime } from "../../runtime.ts";
import { getTodoOrThrow, visibleTodosWhere } from "../access.ts";
import { publishTodo } from "./events.ts";
import { asObject, toTodoListItem, toWorkflow } from "./serialize.ts";
import { getTodo } from "./todos.ts";
import { lockRow } from "../../db/lock.ts";
import { signalTurn } from "../../agent/turn-signals.ts";

/**
 * Joins the caller's connection to the todo's room first, then reads: no event can slip between.
 * A turn streaming its reply writes it coalesced (server/agent/turn-stream.ts): it is asked to
 * write what it streamed so far before the read, so the deltas the connection gets from now on
 * continue the text it reads.
 */
export async function subscribeTodo(caller: Caller, todoId: string, socketId: string | undefined) {
  const { todo } = await getTodoOrThrow(caller, todoId, "read");
  await joinRoom(runtime().io, socketId, caller, `todo:${todoId}`);
  if (todo.status === "RUNNING") await signalTurn(todoId, "flush");
  return getTodo(caller, todoId);
}

export async function updateAgentMapping(caller: Caller, todoId: string, agentSettings: TAgentSettings): Promise<null> {
  checkAgentSettings([agentSettings, "body.agentSettings"]);
  await getTodoOrThrow(caller, todoId, "write");
  const todo = await db().todo.update({
    where: { id: todoId },
    data: { agentSettings: agentSettings as Prisma.InputJsonValue, agentSettingsId: agentSettings.agentSettingsId ?? null },
    include: { group: { select: { slug: true } } },
  });
  publishTodo("todo.updated", todo, toTodoListItem(todo));
  return null;
}

export async function getWorkflow(caller: Caller, todoId: string) {
  const { todo } = await getTodoOrThrow(caller, todoId, "read");
  return toWorkflow(todoId, todo.workflow);
}

/** Changes the workflow under the todo's lock; then `todo.workflow` tells the todo's viewers (its Details panel). */
export async function updateWorkflow(caller: Caller, todoId: string, patch: { contextSummaryUsed?: boolean; contextSummary?: string | null }): Promise<null> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  const next = await db().$transaction(async (tx) => {
    await lockRow(tx, "Todo", todoId);
    const { workflow } = await tx.todo.findUniqueOrThrow({ where: { id: todoId }, select: { workflow: true } });
    const next = { ...asObject(workflow), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
    await tx.todo.update({ where: { id: todoId }, data: { workflow: next as Prisma.InputJsonValue } });
    return next;
  });
  publishTodo("todo.workflow", todo, toWorkflow(todoId, next));
  return null;
}

const TODO_CONTENT_CHARS = 200;
const MESSAGE_CONTENT_CHARS = 500;

/** The first `max` UTF-16 units of `text`, never half of a surrogate pair. */
function preview(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) && text.length > max ? cut.slice(0, -1) : cut;
}

/**
 * The caller's scheduled messages and proposed todos, soonest first (a proposed todo has no time:
 * after every scheduled message, oldest first), each with what a list shows: the project's name,
 * the todo's content and the message's text, cut to a preview.
 */
export async function pendingTasks(caller: Caller) {
  const todo = { select: { content: true, projectId: true, project: { select: { name: true } } } } as const;
  const [scheduled, proposed] = await Promise.all([
    db().message.findMany({
      where: { state: "SCHEDULED", todo: { ...visibleTodosWhere(caller), userId: caller.userId } },
      select: { id: true, todoId: true, content: true, scheduledAt: true, createdAt: true, todo },
      orderBy: { scheduledAt: "asc" },
      take: 200,
    }),
    db().todo.findMany({
      where: { ...visibleTodosWhere(caller), userId: caller.userId, status: "PROPOSED" },
      select: { id: true, createdAt: true, ...todo.select },
      orderBy: { createdAt: "asc" },
      take: 200,
    }),
  ]);
  const about = (t: { content: string; projectId: string; project: { name: string } }) => ({
    projectId: t.projectId,
    projectName: t.project.name,
    todoContent: preview(t.content, TODO_CONTENT_CHARS),
  });
  const tasks = [
    ...scheduled.map((m) => ({
      id: `message:${m.id}`,
      kind: "scheduled_message" as const,
      todoId: m.todoId,
      ...about(m.todo),
      messageId: m.id,
      messageContent: preview(m.content, MESSAGE_CONTENT_CHARS),
      dueAt: epochMsOrNull(m.scheduledAt),
      createdAt: epochMs(m.createdAt),
    })),
    ...proposed.map((t) => ({ id: `todo:${t.id}`, kind: "proposed_todo" as const, todoId: t.id, ...about(t), messageId: null, messageContent: null, dueAt: null, createdAt: epochMs(t.createdAt) })),
  ];
  return tasks.sort((a, b) => (a.dueAt ?? Infinity) - (b.dueAt ?? Infinity) || a.createdAt - b.createdAt);
}

export async function reportAiOutput(caller: Caller, input: { todoId: string; messageId?: string; reason: string; details: string }) {
  await getTodoOrThrow(caller, input.todoId, "read");
  if (input.messageId) {
    const message = await db().message.findFirst({ where: { id: input.messageId, todoId: input.todoId }, select: { id: true } });
    if (!message) throw notFound("Message");
  }
  await db().aiReport.create({ data: { userId: caller.userId, todoId: input.todoId, messageId: input.messageId ?? null, reason: input.reason, details: input.details } });
  return { success: true as const };
}
