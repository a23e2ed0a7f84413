import type { TStatusAction, TTodoListItem, TTodoStatus } from "./schemas/todos.ts";

// CONVENTIONS.md "Todo lifecycle", as data. Anything not in here is 409 CONFLICT. Pure, so the
// server (status changes) and the UI (which controls to offer) share the one table.

/** Statuses from which a new user message with immediate processing starts a turn. */
export const STARTABLE: ReadonlySet<TTodoStatus> = new Set(["TODO", "READY", "DONE", "ERROR"]);
/** Statuses in which a new message waits (PENDING) for the next turn. */
export const WAITING: ReadonlySet<TTodoStatus> = new Set(["RUNNING", "SCHEDULED", "PAUSED"]);
const FINAL: ReadonlySet<TTodoStatus> = new Set(["DONE", "CANCELLED"]);
/** Statuses that take no new user input (409). */
export const CLOSED: ReadonlySet<TTodoStatus> = new Set(["CANCELLED", "PROPOSED"]);

/** How a new user message is to be processed: at once, at its scheduledAt, or not at all. */
export type InputMode = "now" | "scheduled" | "later";

/** The status after a user message arrives (null: closed, 409). A STARTABLE todo starts or schedules; others wait. */
export function onInput(from: TTodoStatus, mode: InputMode): TTodoStatus | null {
  if (CLOSED.has(from)) return null;
  if (mode === "later" || !STARTABLE.has(from)) return from;
  return mode === "now" ? "RUNNING" : "SCHEDULED";
}

/** A scheduled message came due: a SCHEDULED or STARTABLE todo runs; a RUNNING or PAUSED one (or a closed one) stays. */
export function onDue(from: TTodoStatus): TTodoStatus {
  return from === "SCHEDULED" || STARTABLE.has(from) ? "RUNNING" : from;
}

/** An explicit "update and start" of a message: runs from anything not closed (also SCHEDULED, PAUSED). */
export function onStartNow(from: TTodoStatus): TTodoStatus | null {
  return CLOSED.has(from) ? null : "RUNNING";
}

/** The status a new todo is created in. */
export function initialStatus(o: { propose?: boolean; scheduled?: boolean; startProcessing?: boolean }): TTodoStatus {
  return o.propose ? "PROPOSED" : o.scheduled ? "SCHEDULED" : o.startProcessing ? "RUNNING" : "TODO";
}

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

/** Whether a todo's list offers Mark done: the table allows complete, and it is not a proposal (accepted or dismissed instead). */
export function canMarkDone(status: TTodoStatus): boolean {
  return status !== "PROPOSED" && allowedActions(status).includes("complete");
}

/**
 * Running a todo again (project_startFromTemplate's spec): a new todo takes its text, group and
 * agent (settings, assigned agent, contexts), never its status, conversation or metadata.
 */
export function againSpec(todo: Pick<TTodoListItem, "content" | "groupSlug" | "agentSettings" | "assignedAgent" | "agentSettingsId" | "businessContextId">) {
  return {
    content: todo.content,
    ...(todo.groupSlug ? { groupSlug: todo.groupSlug } : {}),
    ...(todo.agentSettings ? { agentSettings: todo.agentSettings } : {}),
    ...(todo.assignedAgent ? { assignedAgent: todo.assignedAgent } : {}),
    ...(todo.agentSettingsId ? { agentSettingsId: todo.agentSettingsId } : {}),
    ...(todo.businessContextId ? { businessContextId: todo.businessContextId } : {}),
  };
}
