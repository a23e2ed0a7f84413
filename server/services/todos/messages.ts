import type { z } from "zod";
import type { Prisma } from "../../db/generated/client.ts";
import { authorOf, type Caller } from "../../auth/caller.ts";
import type { ZAddMessageInput, ZMessagesQuery, ZUpdateMessageInput, TMessage } from "../../../lib/schemas/todos.ts";
import { MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX, MESSAGE_PAGE_MAX_CHARS } from "../../../lib/schemas/todos.ts";
import { scheduleMessage } from "../../agent/schedule-message.ts";
import { ApiError, badRequest, notFound } from "../../http/errors.ts";
import { log } from "../../log.ts";
import { db } from "../../runtime.ts";
import { getTodoOrThrow } from "../access.ts";
import { publishTodo } from "./events.ts";
import { changeTodo, setStatus } from "./lifecycle.ts";
import { onInput, onStartNow } from "../../../lib/todo-lifecycle.ts";
import { messageWithBlocks, toMessage } from "./serialize.ts";

/**
 * One page of a todo's messages in chat order, the one way every read pages them (todo_get,
 * todo_subscribe, todo_getMessages, todo_getPublic): the newest `limit` (default 50, clamped to
 * 200), or those before the message `before`. A page also stops early, after at least one
 * message, once it holds MESSAGE_PAGE_MAX_CHARS characters of content. `nextCursor` is the oldest
 * message returned when older ones exist.
 */
export async function messagePage(todoId: string, q: { limit?: number; before?: string; roles?: readonly ("user" | "assistant" | "system" | "tool")[] }) {
  const limit = Math.min(Math.max(1, Math.trunc(q.limit ?? MESSAGE_PAGE_DEFAULT)), MESSAGE_PAGE_MAX);
  let beforeSeq: bigint | undefined;
  if (q.before) {
    const anchor = await db().message.findFirst({ where: { id: q.before, todoId }, select: { seq: true } });
    if (!anchor) throw badRequest("before is not a message of this todo", [{ path: "query.before", message: "unknown messageId for this todo", code: "invalid_value" }]);
    beforeSeq = anchor.seq;
  }
  const rows = await db().message.findMany({
    where: { todoId, ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}), ...(q.roles ? { role: { in: [...q.roles] } } : {}) },
    orderBy: { seq: "desc" },
    take: limit + 1,
    include: messageWithBlocks,
  });
  let taken = Math.min(rows.length, limit);
  let chars = 0;
  for (let i = 0; i < taken; i++) {
    chars += rows[i]!.content.length;
    if (chars > MESSAGE_PAGE_MAX_CHARS && i > 0) taken = i;
  }
  const page = rows.slice(0, taken).reverse();
  const hasMore = rows.length > taken;
  return { rows: page, hasMore, nextCursor: hasMore ? page[0]!.id : null };
}

export async function getMessages(caller: Caller, todoId: string, q: z.output<typeof ZMessagesQuery>) {
  await getTodoOrThrow(caller, todoId, "read");
  const { rows, nextCursor } = await messagePage(todoId, q);
  return { items: rows.map(toMessage), nextCursor };
}

/**
 * Adds a user message. Immediate processing starts a turn on a TODO, READY, DONE or ERROR todo
 * and waits (PENDING) behind a RUNNING, SCHEDULED or PAUSED one; a future scheduledAt schedules it.
 */
export async function addMessage(caller: Caller, todoId: string, input: z.output<typeof ZAddMessageInput>): Promise<TMessage> {
  await getTodoOrThrow(caller, todoId, "write");
  const scheduledAt = input.scheduledAt !== undefined && input.scheduledAt > Date.now() ? new Date(input.scheduledAt) : null;
  // Under the todo's row lock: a concurrent status change must not be lost.
  const message = await changeTodo(todoId, async (tx, current, fx) => {
    const status = onInput(current.status, scheduledAt ? "scheduled" : input.startProcessing ? "now" : "later");
    if (!status) throw new ApiError("CONFLICT", `A ${current.status} todo takes no new messages`);
    const state: TMessage["state"] = scheduledAt ? "SCHEDULED" : input.startProcessing ? "PENDING" : "DONE";
    // A new message has no blocks yet: nothing to read back.
    const message = toMessage({ ...(await tx.message.create({ data: { todoId, role: "user", authorId: authorOf(caller), content: input.content, state, scheduledAt } })), blocks: [] });
    const nextScheduled = scheduledAt && (!current.scheduledAt || current.scheduledAt > scheduledAt || current.scheduledAt < new Date()) ? scheduledAt : undefined;
    if (scheduledAt) fx.later(() => scheduleMessage({ id: message.id, scheduledAt }));
    await setStatus(tx, current, fx.emit("message.created", message), status, nextScheduled ? { scheduledAt: nextScheduled } : {});
    return message;
  });
  if (!message) throw notFound("Todo");
  return message;
}

type MessageClient = Pick<Prisma.TransactionClient, "message">;

/**
 * Writes `data` to a user message still in one of `states`, and credits the words to `caller`
 * when they differ from the stored ones (Message.authorId: a member who rewrote a message is its
 * author from then on; moving it in time, or sending it as it is, keeps its author). The write is
 * conditional on the words it compared against, so a rewrite landing in between is never credited
 * to the wrong member: it reads again and compares with those. Returns the message as it was
 * before the write, or null when it is no longer in `states`.
 */
async function rewriteMessage(client: MessageClient, caller: Caller, todoId: string, messageId: string, states: TMessage["state"][], data: { content?: string; scheduledAt?: Date | null; state?: TMessage["state"] }) {
  for (;;) {
    const before = await client.message.findFirst({ where: { id: messageId, todoId } });
    if (!before) throw notFound("Message");
    if (before.role !== "user" || !states.includes(before.state)) return null;
    const rewritten = data.content !== undefined && data.content !== before.content;
    const { count } = await client.message.updateMany({
      where: { id: messageId, todoId, role: "user", state: { in: states }, content: before.content },
      data: { ...data, ...(rewritten ? { authorId: authorOf(caller) } : {}) },
    });
    if (count > 0) return before;
  }
}

/** Only a scheduled message, before it starts processing, can change. */
export async function updateMessage(caller: Caller, todoId: string, messageId: string, input: z.output<typeof ZUpdateMessageInput>): Promise<null> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  const scheduledAt = input.scheduledAt === undefined ? undefined : new Date(Math.max(input.scheduledAt, Date.now()));
  // Conditional on the state: the scheduler may take the message at this very moment.
  const before = await rewriteMessage(db(), caller, todoId, messageId, ["SCHEDULED"], { content: input.content, scheduledAt });
  if (!before) throw new ApiError("CONFLICT", "Only a scheduled message can be edited, before it starts processing");
  const message = await db().message.findUniqueOrThrow({ where: { id: messageId }, include: messageWithBlocks });
  if (scheduledAt) await db().todo.update({ where: { id: todoId }, data: { scheduledAt, lastActivityAt: new Date() } });
  publishTodo("message.updated", todo, toMessage(message));
  // The job of the old time finds the message moved and does nothing; this one fires it at the new time.
  if (scheduledAt && +scheduledAt !== +(before.scheduledAt ?? 0)) {
    await scheduleMessage({ id: messageId, scheduledAt }).catch((err: unknown) => log.warn("could not queue a moved message", { messageId, error: err instanceof Error ? err.message : String(err) }));
  }
  return null;
}

/** Edits a user message that has not run yet and starts a turn with it at once. */
export async function updateAndStart(caller: Caller, todoId: string, messageId: string, content: string): Promise<null> {
  await getTodoOrThrow(caller, todoId, "write");
  const changed = await changeTodo(todoId, async (tx, current, fx) => {
    // An explicit start: also out of SCHEDULED or PAUSED.
    const status = onStartNow(current.status);
    if (!status) throw new ApiError("CONFLICT", `A ${current.status} todo cannot start`);
    const before = await rewriteMessage(tx, caller, todoId, messageId, ["SCHEDULED", "PENDING"], { content, state: "PENDING", scheduledAt: null });
    if (!before) throw new ApiError("CONFLICT", "Only a user message that has not started can be updated and started");
    const message = await tx.message.findUniqueOrThrow({ where: { id: messageId }, include: messageWithBlocks });
    await setStatus(tx, current, fx.emit("message.updated", toMessage(message)), status);
    return true;
  });
  if (!changed) throw notFound("Todo");
  return null;
}
