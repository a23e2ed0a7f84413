import type { Caller } from "../../auth/caller.ts";
import type { TStatusAction, TTodoStatus } from "../../../lib/schemas/todos.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { getTodoOrThrow } from "../access.ts";
import { changeTodo, setStatus } from "./lifecycle.ts";
import { nextStatus, turnCutByPause } from "../../../lib/todo-lifecycle.ts";
import { asObject } from "./serialize.ts";

/** PATCH /todos/{todoId}/status: the lifecycle table, under a row lock so no change is lost. */
export async function updateStatus(caller: Caller, todoId: string, action: TStatusAction): Promise<null> {
  await getTodoOrThrow(caller, todoId, "write");
  // accept and resume hand the todo (back) to the agent (the lifecycle starts the turn); pause,
  // complete and cancel are seen by the running turn at its next step.
  const changed = await changeTodo(todoId, async (tx, current, fx) => {
    const [replies, pending, due, scheduled] = await Promise.all([
      tx.message.count({ where: { todoId, role: "assistant", state: "PROCESSING" } }),
      tx.message.count({ where: { todoId, role: { in: ["user", "system"] }, state: "PENDING" } }),
      tx.message.count({ where: { todoId, role: "user", state: "PENDING", scheduledAt: { not: null } } }),
      tx.message.count({ where: { todoId, state: "SCHEDULED" } }),
    ]);
    // The pause records where it came from: only a turn it really cut resumes as RUNNING.
    const { pausedFrom, ...workflow } = asObject(current.workflow) as { pausedFrom?: TTodoStatus } & Record<string, unknown>;
    const cut = turnCutByPause({ pausedFrom, replyInProgress: replies > 0, pendingInput: pending > 0, dueScheduledInput: due > 0 });
    const to = nextStatus(current.status, action, { turnInterrupted: cut, hasScheduled: scheduled > 0 });
    if (!to) throw new ApiError("CONFLICT", `Cannot ${action} a ${current.status} todo`, { status: current.status, action });
    const nextWorkflow = to === "PAUSED" ? { ...workflow, pausedFrom: current.status } : workflow;
    await setStatus(tx, current, fx, to, { workflow: nextWorkflow as Prisma.InputJsonValue });
    return true;
  });
  if (!changed) throw notFound("Todo");
  return null;
}
