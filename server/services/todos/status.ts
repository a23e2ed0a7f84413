import type { Caller } from "../../auth/caller.ts";
import type { TStatusAction } from "../../../lib/schemas/todos.ts";
import { ApiError } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { getTodoOrThrow } from "../access.ts";
import { publishStatus } from "./events.ts";
import { nextStatus } from "../../../lib/todo-lifecycle.ts";

/** PATCH /todos/{todoId}/status: the lifecycle table, under a row lock so no change is lost. */
export async function updateStatus(caller: Caller, todoId: string, action: TStatusAction): Promise<null> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  const { from, to } = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Todo" WHERE "id" = ${todoId} FOR UPDATE`;
    const current = await tx.todo.findUniqueOrThrow({ where: { id: todoId }, select: { status: true } });
    const [interrupted, scheduled] = await Promise.all([
      tx.message.count({ where: { todoId, OR: [{ role: "assistant", state: "PROCESSING" }, { role: "user", state: "PENDING" }] } }),
      tx.message.count({ where: { todoId, state: "SCHEDULED" } }),
    ]);
    const to = nextStatus(current.status, action, { turnInterrupted: interrupted > 0, hasScheduled: scheduled > 0 });
    if (!to) throw new ApiError("CONFLICT", `Cannot ${action} a ${current.status} todo`, { status: current.status, action });
    await tx.todo.update({ where: { id: todoId }, data: { status: to, lastActivityAt: new Date() } });
    return { from: current.status, to };
  });
  publishStatus(todo, to, from);
  // accept and resume hand the todo (back) to the agent; pause, complete and cancel are seen by
  // the running turn at its next step.
  if (to === "RUNNING") runtime().agent.start(todoId);
  return null;
}
