// Todo status words and the status controls the browser UI offers (no React, no DOM).
import type { TStatusAction, TTodoStatus } from "../schemas/todos.ts";
import { allowedActions } from "../todo-lifecycle.ts";

export const STATUS_LABEL: Record<TTodoStatus, string> = {
  PROPOSED: "Proposed",
  TODO: "To do",
  SCHEDULED: "Scheduled",
  RUNNING: "Running",
  PAUSED: "Paused",
  READY: "Ready",
  DONE: "Done",
  ERROR: "Error",
  CANCELLED: "Cancelled",
};

/** Each status's icon, shown before its word (as Linear does); decoration, the word is the text. */
export const STATUS_ICON: Record<TTodoStatus, string> = {
  PROPOSED: "◇",
  TODO: "○",
  SCHEDULED: "◷",
  RUNNING: "◐",
  PAUSED: "॥",
  READY: "●",
  DONE: "✓",
  ERROR: "!",
  CANCELLED: "⊘",
};

/** The inline style that hands a badge its icon (CSS `content: var(--status-icon)`). */
export function statusIconStyle(status: TTodoStatus): Record<string, string> {
  return { "--status-icon": JSON.stringify(STATUS_ICON[status] ?? "") };
}

/** The status's label; an unknown status (a newer server) shows as it is. */
export function statusLabel(status: TTodoStatus): string {
  return STATUS_LABEL[status] ?? status;
}

export const ACTION_LABEL: Record<TStatusAction, string> = {
  pause: "Pause",
  resume: "Resume",
  complete: "Complete",
  cancel: "Cancel",
  accept: "Accept",
  dismiss: "Dismiss",
};

/**
 * The status controls to offer: the lifecycle table's allowed actions, except that a proposal is
 * answered with Accept or Dismiss (its Cancel would be the same as Dismiss, and Complete would
 * close a proposal nobody accepted).
 */
export function statusControls(status: TTodoStatus): TStatusAction[] {
  const allowed = allowedActions(status);
  return status === "PROPOSED" ? allowed.filter((a) => a === "accept" || a === "dismiss") : allowed;
}

/** Statuses in which the API refuses a new message (409). */
export function composerClosedReason(status: TTodoStatus): string | null {
  if (status === "CANCELLED") return "This todo is cancelled: no new messages can be added. Run again starts a new todo like it.";
  if (status === "PROPOSED") return "This todo is a proposal: accept it to talk to the agent.";
  return null;
}
