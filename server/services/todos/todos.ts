import type { z } from "zod";
import { authorOf, type Caller } from "../../auth/caller.ts";
import type { ZCreateTodoInput, ZStartFromSpecInput, ZTodoListQuery, ZTodoUpdateInput, TPublicTodo, TTodo, TTodoStatus } from "../../../lib/schemas/todos.ts";
import { TODO_STATUSES } from "../../../lib/schemas/todos.ts";
import { epochMs } from "../../../lib/schemas/common.ts";
import { notFound } from "../../http/errors.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { signalTurn } from "../../agent/turn-signals.ts";
import { db } from "../../runtime.ts";
import { getTodoOrThrow, needToChange, requireProjectAccess, todoAccessWhere, visibleTodosWhere, type Need } from "../access.ts";
import { todoDefaults } from "./defaults.ts";
import { publishTodo } from "./events.ts";
import { scheduleMessage } from "../../agent/schedule-message.ts";
import { createTodoRow, runEffects } from "./lifecycle.ts";
import { initialStatus } from "../../../lib/todo-lifecycle.ts";
import { messagePage } from "./messages.ts";
import { queueEmbedding } from "../search/queue-embedding.ts";
import { runningShellRuns, stopShellRuns } from "./shell-runs.ts";
import { messageWithBlocks, toMessage, PUBLIC_ROLES, toPublicTodo, toTodo, toTodoListItem } from "./serialize.ts";
import { checkAgentSettings } from "../../agent/policy.ts";
import type { TAgentSettings } from "../../../lib/schemas/agent.ts";
import { containsText } from "../../db/like.ts";

const withGroup = { group: { select: { slug: true } } } as const;

async function groupIdFor(projectId: string, slug: string | null | undefined): Promise<string | null | undefined> {
  if (slug === undefined) return undefined;
  if (slug === null) return null;
  const group = await db().todoGroup.findUnique({ where: { projectId_slug: { projectId, slug } }, select: { id: true } });
  if (!group) throw notFound(`Group "${slug}"`);
  return group.id;
}

type Seed = {
  content: string;
  groupSlug?: string;
  agentSettings?: Record<string, unknown>;
  assignedAgent?: string;
  agentSettingsId?: string;
  businessContextId?: string;
  metadata?: Record<string, unknown>;
};

/** Creates a todo with its first user message, in one transaction, and hands a RUNNING one to the agent. */
async function insertTodo(caller: Caller, projectId: string, seed: Seed, status: TTodoStatus, scheduledAt: Date | null): Promise<TTodo> {
  await requireProjectAccess(caller, projectId, "write");
  const defaults = await todoDefaults(caller, projectId);
  seed = { ...seed, agentSettings: seed.agentSettings ?? defaults.agentSettings ?? undefined };
  // An explicit group must exist (404); a project default that no longer does is simply skipped.
  const groupId = seed.groupSlug !== undefined ? await groupIdFor(projectId, seed.groupSlug) : await groupIdFor(projectId, defaults.groupSlug).catch(() => null);
  const now = new Date();
  const { todo, message, fx } = await db().$transaction(async (tx) => {
    const { todo, fx } = await createTodoRow(
      tx,
      {
        projectId,
        userId: caller.userId,
        groupId: groupId ?? null,
        content: seed.content,
        scheduledAt,
        assignedAgent: seed.assignedAgent ?? null,
        agentSettingsId: seed.agentSettingsId ?? seed.agentSettings?.agentSettingsId?.toString() ?? null,
        businessContextId: seed.businessContextId ?? null,
        agentSettings: (seed.agentSettings as Prisma.InputJsonValue | undefined) ?? undefined,
        metadata: (seed.metadata ?? {}) as Prisma.InputJsonValue,
        lastActivityAt: now,
      },
      status,
      withGroup,
    );
    const message = await tx.message.create({
      data: { todoId: todo.id, role: "user", authorId: authorOf(caller), content: seed.content, state: scheduledAt ? "SCHEDULED" : "PENDING", scheduledAt },
      include: messageWithBlocks,
    });
    fx.emit("todo.created", toTodoListItem(todo)).emit("message.created", toMessage(message));
    if (scheduledAt) fx.later(() => scheduleMessage({ id: message.id, scheduledAt }));
    return { todo, message, fx };
  });
  await runEffects(fx);
  await queueEmbedding("todo", todo.id, todo.content);
  return toTodo(todo, [message], false);
}

export async function createTodo(caller: Caller, projectId: string, input: z.output<typeof ZCreateTodoInput>): Promise<TTodo> {
  checkAgentSettings([input.agentSettings, "body.agentSettings"]);
  const scheduledAt = input.scheduledAt !== undefined && input.scheduledAt > Date.now() ? new Date(input.scheduledAt) : null;
  return insertTodo(caller, projectId, input, initialStatus({ scheduled: scheduledAt !== null, startProcessing: input.startProcessing }), scheduledAt);
}

/** The single accept path: a spec with overrides on top, or from scratch; PROPOSED when asked. */
export async function startFromTemplate(caller: Caller, projectId: string, input: z.output<typeof ZStartFromSpecInput>): Promise<TTodo> {
  const base = input.spec ?? { content: input.content! };
  const seed = { ...base, ...Object.fromEntries(Object.entries(input.overrides ?? {}).filter(([, v]) => v !== undefined)) } as Seed;
  if (input.content !== undefined && !input.spec) seed.content = input.content;
  checkAgentSettings([seed.agentSettings as TAgentSettings | undefined, input.overrides?.agentSettings ? "body.overrides.agentSettings" : "body.spec.agentSettings"]);
  return insertTodo(caller, projectId, seed, initialStatus({ propose: input.propose, startProcessing: true }), null);
}

/** A todo with the newest page of its messages (messagePage: default 50, at most 200). */
export async function getTodo(caller: Caller, todoId: string, messageLimit?: number): Promise<TTodo> {
  const { todo } = await getTodoOrThrow(caller, todoId, "read");
  const page = await messagePage(todoId, { limit: messageLimit });
  return toTodo(todo, page.rows, page.hasMore);
}

/** todo_getPublic: only a public todo, only its public fields (toPublicTodo), a page of messages. */
export async function getPublicTodo(todoId: string, q: { messageLimit?: number; before?: string }): Promise<TPublicTodo> {
  const todo = await db().todo.findUnique({ where: { id: todoId } });
  // A private todo answers exactly like a missing one.
  if (!todo || !todo.isPublic) throw notFound("Todo");
  // The conversation only: system messages carry what the agent was given (a shell command's
  // output, sub-todos' results, summaries), which the owner never wrote into it.
  const page = await messagePage(todoId, { limit: q.messageLimit, before: q.before, roles: PUBLIC_ROLES });
  return toPublicTodo(todo, page.rows, page.hasMore, page.nextCursor);
}

export async function updateTodo(caller: Caller, todoId: string, input: z.output<typeof ZTodoUpdateInput>): Promise<null> {
  // Editors write todos; publishing one (isPublic) is the owner's.
  const need = needToChange("todo", input);
  // A group named by its slug is looked up in the todo's project, which is read first.
  const groupId = typeof input.groupSlug === "string" ? await groupIdFor((await getTodoOrThrow(caller, todoId, need)).todo.projectId, input.groupSlug) : input.groupSlug;
  const data: Prisma.TodoUncheckedUpdateManyInput = {
    content: input.content,
    scheduledAt: input.scheduledAt === undefined ? undefined : input.scheduledAt === null ? null : new Date(input.scheduledAt),
    assignedAgent: input.assignedAgent,
    isPublic: input.isPublic,
    groupId,
    metadata: input.metadata as Prisma.InputJsonValue | undefined,
    lastActivityAt: new Date(),
  };
  // The text before, for the first message that still waits with it (below).
  const before = input.content !== undefined ? await db().todo.findUnique({ where: { id: todoId }, select: { content: true, status: true } }) : null;
  const updated = await updateIfAllowed(caller, todoId, need, data);
  const group = input.groupSlug !== undefined ? (input.groupSlug === null ? null : { slug: input.groupSlug }) : await groupOf(updated.groupId);
  // Made private: its public viewers hear this last event and leave (server/realtime/public-todos.ts).
  publishTodo("todo.updated", updated, toTodoListItem({ ...updated, group }), { endsPublic: input.isPublic === false });
  // Published first: the todo's own event does not wait for its first message's statements.
  if (before && input.content !== undefined && before.content !== input.content && !AFTER_A_TURN.has(before.status)) await followInFirstMessage(caller, updated, before.content, input.content);
  // A reply streaming now starts or stops streaming to the public viewers too, wherever it runs.
  if (input.isPublic !== undefined && updated.status === "RUNNING") await signalTurn(todoId, input.isPublic ? "public" : "private");
  if (input.content !== undefined) await queueEmbedding("todo", todoId, updated.content);
  return null;
}

/**
 * Statuses a turn leaves behind: it took the first message, which no longer waits, so an edit
 * reads and writes nothing more. (A todo paused before its first turn began and then resumed is
 * READY with its first message still waiting: that message keeps its text, as one the agent never
 * started on.)
 */
const AFTER_A_TURN: ReadonlySet<TTodoStatus> = new Set<TTodoStatus>(["READY", "ERROR"]);

/**
 * A todo's text is also its first message. While that message waits (the agent has not taken it:
 * PENDING or SCHEDULED) and still says what the todo said, it follows the new text, so the agent
 * works on what the todo says when it starts. Conditional on its state and its text: a turn that
 * takes it meanwhile, or an edit of the message itself, wins, and the message is left as it is.
 */
async function followInFirstMessage(caller: Caller, todo: { id: string; projectId: string; userId: string; isPublic: boolean }, was: string, now: string): Promise<void> {
  // Chat order is `seq` (ties in createdAt never reorder a conversation).
  const first = await db().message.findFirst({ where: { todoId: todo.id }, orderBy: { seq: "asc" }, select: { id: true } });
  if (!first) return;
  const { count } = await db().message.updateMany({
    where: { id: first.id, role: "user", state: { in: ["PENDING", "SCHEDULED"] }, content: was },
    data: { content: now, authorId: authorOf(caller) },
  });
  if (count === 0) return;
  const message = await db().message.findUniqueOrThrow({ where: { id: first.id }, include: messageWithBlocks });
  publishTodo("message.updated", todo, toMessage(message));
}

/**
 * The access check and the write in one statement: an UPDATE … RETURNING whose WHERE is the
 * caller's access (todoAccessWhere). When it matches nothing, getTodoOrThrow says why (404 or
 * 403); if that finds access after all (granted meanwhile), the write is tried once more.
 */
async function updateIfAllowed(caller: Caller, todoId: string, need: Need, data: Prisma.TodoUncheckedUpdateManyInput) {
  const where = { id: todoId, AND: [todoAccessWhere(caller, need)] };
  const [updated] = await db().todo.updateManyAndReturn({ where, data });
  if (updated) return updated;
  await getTodoOrThrow(caller, todoId, need);
  const [again] = await db().todo.updateManyAndReturn({ where, data });
  if (!again) throw notFound("Todo");
  return again;
}

/** The slug of a todo's group, read only when it has one. */
async function groupOf(groupId: string | null): Promise<{ slug: string } | null> {
  return groupId === null ? null : db().todoGroup.findUnique({ where: { id: groupId }, select: { slug: true } });
}

export async function deleteTodo(caller: Caller, todoId: string): Promise<null> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  const runs = await runningShellRuns({ id: todoId });
  // Messages and blocks go with it (ON DELETE CASCADE).
  await db().todo.delete({ where: { id: todoId } });
  publishTodo("todo.deleted", todo, { todoId });
  stopShellRuns(runs);
  // Its turn, if one streams, stops now rather than at its next write (server/agent/turn-signals.ts).
  if (todo.status === "RUNNING") await signalTurn(todoId, "stop");
  return null;
}

/**
 * Newest activity first. A page never ends inside a group of todos sharing one lastActivityAt,
 * so `cursor` (the last item's lastActivityAt) never loses or repeats one (docs/api.md).
 */
export async function listTodos(caller: Caller, projectId: string, q: z.output<typeof ZTodoListQuery>) {
  await requireProjectAccess(caller, projectId, "read");
  const status = TODO_STATUSES.find((s) => s === q.search?.toUpperCase());
  const where: Prisma.TodoWhereInput = {
    ...visibleTodosWhere(caller),
    projectId,
    ...(q.agentSettingsId ? { agentSettingsId: q.agentSettingsId } : {}),
    ...(q.businessContextId ? { businessContextId: q.businessContextId } : {}),
    ...(q.search ? { OR: [{ content: { ...containsText(q.search), mode: "insensitive" } }, ...(status ? [{ status }] : [])] } : {}),
  };
  const order = [{ lastActivityAt: "desc" as const }, { id: "desc" as const }];
  const rows = await db().todo.findMany({
    where: { ...where, ...(q.cursor !== undefined ? { lastActivityAt: { lt: new Date(q.cursor) } } : {}) },
    orderBy: order,
    take: q.limit + 1,
    include: withGroup,
  });
  if (rows.length <= q.limit) return { items: rows.map(toTodoListItem), nextCursor: null };
  const boundary = rows[q.limit]!.lastActivityAt.getTime();
  let page = rows.slice(0, q.limit);
  if (page.at(-1)!.lastActivityAt.getTime() === boundary) {
    page = page.filter((r) => r.lastActivityAt.getTime() !== boundary);
    if (page.length === 0) {
      // One group of ties is larger than a page: it comes whole.
      const group = await db().todo.findMany({ where: { ...where, lastActivityAt: new Date(boundary) }, orderBy: order, include: withGroup });
      const older = await db().todo.findFirst({ where: { ...where, lastActivityAt: { lt: new Date(boundary) } }, select: { id: true } });
      return { items: group.map(toTodoListItem), nextCursor: older ? boundary : null };
    }
  }
  return { items: page.map(toTodoListItem), nextCursor: epochMs(page.at(-1)!.lastActivityAt) };
}
