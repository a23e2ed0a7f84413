import type { Caller } from "../../auth/caller.ts";
import type { TStatusAction, TTodoStatus } from "../../../lib/schemas/todos.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { ApiError } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { getTodoOrThrow } from "../access.ts";
import { publishStatus } from "./events.ts";
import { nextStatus, turnCutByPause } from "../../../lib/todo-lifecycle.ts";
import { asObject } from "./serialize.ts";

/** PATCH /todos/{todoId}/status: the lifecycle table, under a row lock so no change is lost. */
export async function updateStatus(caller: Caller, todoId: string, action: TStatusAction): Promise<null> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  const { from, to } = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Todo" WHERE "id" = ${todoId} FOR UPDATE`;
    const current = await tx.todo.findUniqueOrThrow({ where: { id: todoId }, select: { status: true, workflow: true } });
    const [replies, pending, due, scheduled] = await Promise.all([
      tx.message.count({ where: { todoId, role: "assistant", state: "PROCESSING" } }),
      tx.message.count({ where: { todoId, role: "user", state: "PENDING" } }),
      tx.message.count({ where: { todoId, role: "user", state: "PENDING", scheduledAt: { not: null } } }),
      tx.message.count({ where: { todoId, state: "SCHEDULED" } }),
    ]);
    // The pause records where it came from: only a turn it really cut resumes as RUNNING.
    const { pausedFrom, ...workflow } = asObject(current.workflow) as { pausedFrom?: TTodoStatus } & Record<string, unknown>;
    const cut = turnCutByPause({ pausedFrom, replyInProgress: replies > 0, pendingInput: pending > 0, dueScheduledInput: due > 0 });
    const to = nextStatus(current.status, action, { turnInterrupted: cut, hasScheduled: scheduled > 0 });
    if (!to) throw new ApiError("CONFLICT", `Cannot ${action} a ${current.status} todo`, { status: current.status, action });
    const nextWorkflow = to === "PAUSED" ? { ...workflow, pausedFrom: current.status } : workflow;
    await tx.todo.update({ where: { id: todoId }, data: { status: to, lastActivityAt: new Date(), workflow: nextWorkflow as Prisma.InputJsonValue } });
    return { from: current.status, to };
  });
  publishStatus(todo, to, from);
  // accept and resume hand the todo (back) to the agent; pause, complete and cancel are seen by
  // the running turn at its next step.
  if (to === "RUNNING") runtime().agent.start(todoId);
  return null;
}
