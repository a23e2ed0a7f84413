import type { TStatusAction, TTodoStatus } from "./schemas/todos.ts";

// CONVENTIONS.md "Todo lifecycle", as data. Anything not in here is 409 CONFLICT. Pure, so the
// server (status changes) and the UI (which controls to offer) share the one table.

/** Statuses from which a new user message with immediate processing starts a turn. */
export const STARTABLE: ReadonlySet<TTodoStatus> = new Set(["TODO", "READY", "DONE", "ERROR"]);
/** Statuses in which a new message waits (PENDING) for the next turn. */
export const WAITING: ReadonlySet<TTodoStatus> = new Set(["RUNNING", "SCHEDULED", "PAUSED"]);
const FINAL: ReadonlySet<TTodoStatus> = new Set(["DONE", "CANCELLED"]);

export type ResumeContext = {
  /** A turn was cut by the pause (see `turnCutByPause`). */
  turnInterrupted: boolean;
  /** A scheduled message is still to come. */
  hasScheduled: boolean;
};

/** The status an action leads to, or null when the table does not allow it. */
export function nextStatus(from: TTodoStatus, action: TStatusAction, ctx: ResumeContext): TTodoStatus | null {
  switch (action) {
    case "pause":
      return from === "RUNNING" || from === "SCHEDULED" ? "PAUSED" : null;
    case "resume":
      if (from !== "PAUSED") return null;
      // A paused schedule resumes as a schedule (our reading of "else READY" for scheduled todos).
      return ctx.turnInterrupted ? "RUNNING" : ctx.hasScheduled ? "SCHEDULED" : "READY";
    case "complete":
      return FINAL.has(from) ? null : "DONE";
    case "cancel":
      return FINAL.has(from) ? null : "CANCELLED";
    case "accept":
      return from === "PROPOSED" ? "RUNNING" : null;
    case "dismiss":
      return from === "PROPOSED" ? "CANCELLED" : null;
  }
}

/** What resume knows about a paused todo. */
export type PauseFacts = {
  /** The status the pause came from (recorded by the pause; absent on todos paused before it was). */
  pausedFrom?: TTodoStatus;
  /** An assistant reply is still PROCESSING: the pause stopped it mid-way. */
  replyInProgress: boolean;
  /** User messages wait (PENDING) for a turn. */
  pendingInput: boolean;
  /** One of them is a scheduled message that came due during the pause. */
  dueScheduledInput: boolean;
};

/**
 * Whether the pause really cut a turn, so resume continues it (RUNNING): a reply was being written,
 * input waited behind a RUNNING todo, or a scheduled message came due meanwhile. Input that waited
 * on a schedule, or the first message of a todo created without processing, waits on.
 */
export function turnCutByPause(f: PauseFacts): boolean {
  if (f.replyInProgress || f.dueScheduledInput) return true;
  return f.pendingInput && (f.pausedFrom === undefined || f.pausedFrom === "RUNNING");
}

/** After a turn: waiting input means another turn, a coming scheduled message means SCHEDULED. */
export function afterTurn(ctx: { pendingInput: boolean; hasScheduled: boolean }): TTodoStatus {
  return ctx.pendingInput ? "RUNNING" : ctx.hasScheduled ? "SCHEDULED" : "READY";
}

const ACTIONS: readonly TStatusAction[] = ["pause", "resume", "complete", "cancel", "accept", "dismiss"];

/** The actions the table allows from `status` (what a status control may offer). */
export function allowedActions(status: TTodoStatus): TStatusAction[] {
  return ACTIONS.filter((action) => nextStatus(status, action, { turnInterrupted: false, hasScheduled: false }) !== null);
}
