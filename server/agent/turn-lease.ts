// The turn's lease: which process works on a RUNNING todo, until when. It lives in the todo's
// typed columns `leaseOwner` and `leaseUntil` (null: nobody); the turn in progress (`currentTurn`,
// with its recoveries) stays in the workflow JSON, whose one declaration is `Workflow` here.
import { Prisma } from "../db/generated/client.ts";
import { lockRow } from "../db/lock.ts";
import { db } from "../runtime.ts";
import { asObject } from "../services/todos/serialize.ts";

/** The agent's turn in progress, recorded in the workflow so another process can resume it. */
export type Turn = { messageId: string; startedAt: number; userMessages: string[]; /** times a process took this turn over from one that died */ recoveries?: number };
/** The todo's workflow JSON as the agent reads it (the one declaration; extras.ts shows a part of it). */
export type Workflow = Record<string, unknown> & {
  currentTurn?: Turn;
  contextSummary?: string | null;
  contextSummaryUsed?: boolean;
  /** The last message (seq, as a string) the summary stands in for; absent: a summary set by hand, sent once. */
  contextSummaryThrough?: string;
  turn?: number;
  state?: string;
};
/** The todo's columns that hold the lease. */
export type Lease = { leaseOwner: string | null; leaseUntil: Date | null };
/** Written with a turn's end: nobody holds the todo any more. */
export const NO_LEASE = { leaseOwner: null, leaseUntil: null } as const;

/** A turn whose process died is taken over (and resumed) this many times; once more, it ends in ERROR. */
export const MAX_RECOVERIES = 1;
export const TURN_LOST_TWICE = "The agent turn was interrupted twice by a server failure (a crash or a kill) and was not retried again";

/** Whether a live process holds the todo's turn (a lease that has not run out). */
export function leaseIsLive(todo: Pick<Lease, "leaseUntil">, now = Date.now()): boolean {
  return todo.leaseUntil !== null && todo.leaseUntil.getTime() > now;
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
    if (!(await lockRow(tx, "Todo", todoId))) return "held";
    const row = await tx.todo.findUniqueOrThrow({ where: { id: todoId }, select: { id: true, userId: true, workflow: true, leaseOwner: true, leaseUntil: true } });
    const lease = leaseFor(holder, row, renew);
    if (lease.result !== "ok") return lease.result;
    return (await holdLease(tx, holder, row, lease)) ? "ok" : "busy";
  });
}

/** The todo's columns leaseFor reads (under the row's lock). */
export type LeaseRow = Lease & { id: string; userId: string; workflow: unknown };

/** What leaseFor decided: "held", or "ok" with the columns to write and whether a slot of the user's must be claimed first. */
export type LeaseDecision =
  | { result: "held" }
  | { result: "ok"; claim: boolean; workflow: Workflow; data: { leaseOwner: string; leaseUntil: Date; workflow?: Prisma.InputJsonValue } };

/**
 * takeLease's decision, the todo's row locked and read, without a statement: held by another live
 * process, or "ok" with the columns to write (the caller writes them, with whatever else changes
 * in the same UPDATE). Taking it (not renewing) needs `holdLease`'s claim in the same transaction
 * (`claim`), as late as possible: it serialises the user's turns in every process.
 */
export function leaseFor(holder: LeaseHolder, row: LeaseRow, renew = false): LeaseDecision {
  const w = asObject(row.workflow) as Workflow;
  const now = Date.now();
  const mine = row.leaseOwner === holder.owner;
  if (renew && !mine) return { result: "held" };
  if (!mine && leaseIsLive(row, now)) return { result: "held" };
  let turn = w.currentTurn;
  // A lease left behind (lapsed, or voided at start) means its process died mid-turn.
  if (!mine && row.leaseOwner !== null && turn) {
    const recoveries = (turn.recoveries ?? 0) + 1;
    if (recoveries > MAX_RECOVERIES) throw new Error(TURN_LOST_TWICE);
    turn = { ...turn, recoveries };
  }
  const workflow = turn === w.currentTurn ? w : { ...w, currentTurn: turn };
  return {
    result: "ok",
    claim: !mine,
    workflow,
    data: { leaseOwner: holder.owner, leaseUntil: new Date(now + holder.leaseMs), ...(workflow === w ? {} : { workflow: workflow as Prisma.InputJsonValue }) },
  };
}

/**
 * Writes the lease leaseFor decided, with `workflow` when given (instead of leaseFor's). Taking it
 * (`lease.claim`) first claims a slot of the user's: the user's other live leases in every process
 * are counted under a per-user advisory lock held to the end of the transaction, so the limit holds
 * across processes; none left: nothing is written, false. The lock, the count and the write are one
 * statement (the function agent_claim_turn, migration 20261126132000), so the lock, which
 * serialises the starts of the user's turns, is held for it and the commit only: keep what follows
 * in the transaction short.
 */
export async function holdLease(tx: Prisma.TransactionClient, holder: LeaseHolder, row: { id: string; userId: string }, lease: Extract<LeaseDecision, { result: "ok" }>, workflow?: Prisma.InputJsonValue): Promise<boolean> {
  const written = workflow ?? lease.data.workflow;
  if (!lease.claim) {
    await tx.todo.update({ where: { id: row.id }, data: { ...lease.data, ...(written === undefined ? {} : { workflow: written }) } });
    return true;
  }
  const [claimed] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT ${claimSql(holder, row, lease, Prisma.sql`${written === undefined ? null : JSON.stringify(written)}::jsonb`)} AS "ok"`;
  return claimed?.ok === true;
}

/**
 * holdLease's claim as an SQL expression (true: claimed and written), for a statement that does
 * more in the same round trip (beginTurn's); `workflow` is a jsonb expression (NULL: unchanged).
 */
export function claimSql(holder: LeaseHolder, row: { id: string; userId: string }, lease: Extract<LeaseDecision, { result: "ok" }>, workflow: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`agent_claim_turn(${row.id}, ${row.userId}, ${holder.maxPerUser}::int, ${new Date()}::timestamp(3), ${lease.data.leaseOwner}, ${lease.data.leaseUntil}::timestamp(3), ${workflow})`;
}

/** Gives the lease up (the turn stopped here), changing the workflow with it, under the row lock. */
export async function dropLease(todoId: string, change: (w: Workflow) => Workflow = (w) => w): Promise<void> {
  await db().$transaction(async (tx) => {
    if (!(await lockRow(tx, "Todo", todoId))) return;
    const row = await tx.todo.findUniqueOrThrow({ where: { id: todoId }, select: { workflow: true } });
    const workflow = JSON.parse(JSON.stringify(change(asObject(row.workflow) as Workflow))) as Prisma.InputJsonValue;
    await tx.todo.update({ where: { id: todoId }, data: { workflow, ...NO_LEASE } });
  });
}

/**
 * The embedded database has one process: leases left by the previous one are void at start. They
 * are marked lapsed rather than removed, so taking such a turn over still counts as a recovery.
 */
export async function voidLeases(): Promise<void> {
  await db().todo.updateMany({ where: { status: "RUNNING", leaseOwner: { not: null } }, data: { leaseUntil: new Date(0) } });
}
