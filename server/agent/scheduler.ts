import { log } from "../log.ts";
import { db, runtime } from "../runtime.ts";
import { publishStatus, publishTodo } from "../services/todos/events.ts";
import { messageWithBlocks, toMessage } from "../services/todos/serialize.ts";

/**
 * Fires scheduled messages when they are due: the message becomes PENDING and the todo starts a
 * turn (unless it is paused, running, or closed, where the message waits). State lives in the
 * database, so a restart picks up what came due meanwhile, and the conditional update lets only
 * one process take a message.
 */
export function startScheduler(everyMs = 500): { stop(): void } {
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const due = await db().message.findMany({
        where: { state: "SCHEDULED", scheduledAt: { lte: new Date() } },
        select: { id: true, todoId: true },
        orderBy: { scheduledAt: "asc" },
        take: 100,
      });
      for (const m of due) await fire(m.id, m.todoId);
    } catch (err) {
      log.warn("scheduler tick failed", { error: err instanceof Error ? err.message : String(err) });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}

async function fire(messageId: string, todoId: string) {
  const result = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Todo" WHERE "id" = ${todoId} FOR UPDATE`;
    const { count } = await tx.message.updateMany({ where: { id: messageId, state: "SCHEDULED" }, data: { state: "PENDING" } });
    if (count === 0) return null; // edited away or taken by another process
    const todo = await tx.todo.findUniqueOrThrow({ where: { id: todoId }, select: { id: true, projectId: true, status: true } });
    const next = todo.status === "SCHEDULED" || todo.status === "TODO" || todo.status === "READY" || todo.status === "DONE" || todo.status === "ERROR" ? "RUNNING" : todo.status;
    await tx.todo.update({ where: { id: todoId }, data: { status: next, lastActivityAt: new Date() } });
    const message = await tx.message.findUniqueOrThrow({ where: { id: messageId }, include: messageWithBlocks });
    return { todo, next, message };
  });
  if (!result) return;
  publishTodo("message.updated", result.todo, toMessage(result.message));
  publishStatus(result.todo, result.next, result.todo.status);
  if (result.next === "RUNNING") runtime().agent.start(todoId);
}
