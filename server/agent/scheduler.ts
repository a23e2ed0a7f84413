import { log } from "../log.ts";
import { db, runtime } from "../runtime.ts";
import { changeTodo, setStatus } from "../services/todos/lifecycle.ts";
import { onDue } from "../../lib/todo-lifecycle.ts";
import { messageWithBlocks, toMessage } from "../services/todos/serialize.ts";
import { leaseIsLive, voidLeases } from "./turn-lease.ts";

/**
 * Fires scheduled messages when they are due: the message becomes PENDING and the todo starts a
 * turn (unless it is paused, running, or closed, where the message waits). State lives in the
 * database, so a restart picks up what came due meanwhile, and the conditional update lets only
 * one process take a message.
 */
export function startScheduler(everyMs = 500, recoverEvery = 10): { stop(): void } {
  let busy = false;
  let ticks = 0;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      if (ticks++ % recoverEvery === 0) await recoverTurns();
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
  await changeTodo(todoId, async (tx, todo, fx) => {
    const { count } = await tx.message.updateMany({ where: { id: messageId, state: "SCHEDULED" }, data: { state: "PENDING" } });
    if (count === 0) return; // edited away or taken by another process
    const message = await tx.message.findUniqueOrThrow({ where: { id: messageId }, include: messageWithBlocks });
    await setStatus(tx, todo, fx.emit("message.updated", toMessage(message)), onDue(todo.status));
  });
}

/**
 * RUNNING todos that no live process works on (no lease, or one that ran out: its process died)
 * are handed to this process's runner, which resumes the turn where it stopped. On start this
 * picks up what a crash or restart left RUNNING, so nothing stays RUNNING forever.
 */
async function recoverTurns() {
  const running = await db().todo.findMany({ where: { status: "RUNNING" }, select: { id: true, leaseUntil: true }, take: 500 });
  const now = Date.now();
  for (const todo of running) {
    if (!leaseIsLive(todo, now)) runtime().agent.start(todo.id);
  }
}

/** At start on the embedded database: see voidLeases. */
export const releaseLeases = voidLeases;
