// A scheduled message comes due: one delayed job per (message, scheduled time). See docs/jobs.md.
import { z } from "zod";
import { onDue } from "../../lib/todo-lifecycle.ts";
import { defineJob } from "../jobs/define.ts";
import { db } from "../runtime.ts";
import { changeTodo, setStatus } from "../services/todos/lifecycle.ts";
import { messageWithBlocks, toMessage } from "../services/todos/serialize.ts";

/**
 * Fires a scheduled message: under the todo's row lock the message turns PENDING and the todo
 * moves by `onDue` (a turn starts unless the todo is paused, running or closed; then the message
 * waits). The update matches the exact `scheduledAt` the job was queued for, so the job of a time
 * the message was moved away from does nothing, and a worker whose clock runs a little behind the
 * enqueuer's still fires the message on time instead of finding it "not due yet". A message that
 * was deleted, edited and started, or fired already does nothing too: the job is safe to run twice.
 */
export const fireMessageJob = defineJob(
  "message.fire",
  z.object({ messageId: z.string().min(1), at: z.number().int() }),
  async ({ messageId, at }) => {
    const found = await db().message.findUnique({ where: { id: messageId }, select: { todoId: true } });
    if (!found) return;
    await changeTodo(found.todoId, async (tx, todo, fx) => {
      const { count } = await tx.message.updateMany({ where: { id: messageId, state: "SCHEDULED", scheduledAt: new Date(at) }, data: { state: "PENDING" } });
      if (count === 0) return; // moved to another time, edited and started, or fired already
      const message = await tx.message.findUniqueOrThrow({ where: { id: messageId }, include: messageWithBlocks });
      await setStatus(tx, todo, fx.emit("message.updated", toMessage(message)), onDue(todo.status));
    });
  },
  // A failed job holds its key until an operator retries it: retry for about 8.5 minutes first
  // (waits of 1 s to 256 s) before it shows in `npm run jobs -- failed`.
  { attempts: 10, backoffMs: 1_000 },
);
