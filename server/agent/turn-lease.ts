// The turn's lease: which process works on a RUNNING todo, until when. It lives in the todo's
// workflow JSON (`lease`, beside `currentTurn`); only this file and turn-store.ts read or write it.
import type { Prisma } from "../db/generated/client.ts";
import { db } from "../runtime.ts";
import { lockTodo } from "../services/todos/lifecycle.ts";
import { asObject } from "../services/todos/serialize.ts";

/** The agent's turn in progress, recorded in the workflow so another process can resume it. */
export type Turn = { messageId: string; startedAt: number; userMessages: string[]; /** times a process took this turn over from one that died */ recoveries?: number };
/** The todo's workflow JSON as the agent reads it (the one declaration; extras.ts shows a part of it). */
export type Workflow = Record<string, unknown> & { currentTurn?: Turn; lease?: { owner: string; until: number }; contextSummary?: string | null; contextSummaryUsed?: boolean; turn?: number };

/** A turn whose process died is taken over (and resumed) this many times; once more, it ends in ERROR. */
export const MAX_RECOVERIES = 1;
export const TURN_LOST_TWICE = "The agent turn was interrupted twice by a server failure (a crash or a kill) and was not retried again";

/** Whether a live process holds the turn of a todo with this workflow (a lease that has not run out). */
export function leaseIsLive(workflow: unknown, now = Date.now()): boolean {
  const until = (workflow as Workflow | null)?.lease?.until;
  return typeof until === "number" && until > now;
}

/** What taking the lease found: ours now, another live process's, or the user's limit reached. */
export type LeaseResult = "ok" | "held" | "busy";

/** Who asks for a lease: the process (owner), how long it holds one, the per-user limit. */
export type LeaseHolder = { owner: string; leaseMs: number; maxPerUser: number };

/**
 * Takes the holder's lease on the todo, or with `renew` only extends the one it holds. Taking it
 * counts the user's other live leases (in every process, under a per-user advisory lock), so the
 * per-user limit holds across processes. Taking over the lapsed lease of a process that died
 * mid-turn counts a recovery; past MAX_RECOVERIES the turn fails (throws TURN_LOST_TWICE).
 */
export async function takeLease(holder: LeaseHolder, todoId: string, renew = false): Promise<LeaseResult> {
  return db().$transaction(async (tx) => {
    const row = await lockTodo(tx, todoId);
    if (!row) return "held";
    const w = asObject(row.workflow) as Workflow;
    const now = Date.now();
    const mine = w.lease?.owner === holder.owner;
    if (renew && !mine) return "held";
    if (!mine && leaseIsLive(w, now)) return "held";
    let turn = w.currentTurn;
    if (!mine) {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`agent-user:${row.userId}`}))`;
      const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM "Todo"
        WHERE "userId" = ${row.userId} AND "id" <> ${todoId} AND "status" = 'RUNNING'
          AND ("workflow"->'lease'->>'until')::bigint > ${now}`;
      if (n >= holder.maxPerUser) return "busy";
      if (w.lease && turn) {
        const recoveries = (turn.recoveries ?? 0) + 1;
        if (recoveries > MAX_RECOVERIES) throw new Error(TURN_LOST_TWICE);
        turn = { ...turn, recoveries };
      }
    }
    await tx.todo.update({ where: { id: todoId }, data: { workflow: { ...w, currentTurn: turn, lease: { owner: holder.owner, until: now + holder.leaseMs } } as Prisma.InputJsonValue } });
    return "ok";
  });
}

/** Changes the todo's workflow under its row lock (the lease and the turn's record, never the status). */
export async function updateWorkflow(todoId: string, change: (w: Workflow) => Workflow): Promise<void> {
  await db().$transaction(async (tx) => {
    const row = await lockTodo(tx, todoId);
    if (row) await tx.todo.update({ where: { id: todoId }, data: { workflow: JSON.parse(JSON.stringify(change(asObject(row.workflow) as Workflow))) as Prisma.InputJsonValue } });
  });
}
