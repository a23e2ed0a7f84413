"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { ErrorAlert } from "@/components/ui/error-alert";
import { GroupOptions } from "./group-options";
import { RenameInput } from "@/components/ui/rename-input";
import { call } from "@/lib/api/client";
import type { TTodoGroup } from "@/lib/schemas/groups";
import { ZTodoStatusUpdateInput, type TStatusAction, type TTodoListItem } from "@/lib/schemas/todos";
import { allowedActions, canMarkDone } from "@/lib/todo-lifecycle";
import { formatDateTime, formatDue, formatRelative, todoHref, truncate } from "@/lib/ui/format";
import { errorMessage } from "@/lib/ui/form-issues";
import { startAgain, startWaiting } from "@/lib/ui/agent-start";
import { statusIconStyle, statusLabel } from "@/lib/ui/status";

export function StatusBadge({ status }: { status: TTodoListItem["status"] }) {
  return (
    <span className={`status status-${status.toLowerCase()}`} data-testid="todo-status" data-status={status} style={statusIconStyle(status)}>
      {statusLabel(status)}
    </span>
  );
}

/** What the agent is doing on this todo, in a few words (null when nothing is worth saying). */
function agentState(todo: TTodoListItem): string | null {
  switch (todo.status) {
    case "RUNNING":
      return "agent writing…";
    case "SCHEDULED":
      // A time ahead ("runs in 3 h"); formatRelative is for times past, and said "just now".
      if (!todo.scheduledAt) return "scheduled";
      const due = formatDue(todo.scheduledAt);
      return due === "due now" ? due : `runs ${due}`;
    case "PAUSED":
      return "agent paused";
    case "READY":
      return "reply ready";
    case "ERROR":
      return "agent failed";
    default:
      return null;
  }
}

/** How long a cancel waits for Undo before it is sent (a cancelled todo cannot be reopened). */
export const CANCEL_UNDO_MS = 5_000;

/** The drag-and-drop payload of a todo row (read by the group sections). */
export const TODO_DRAG_TYPE = "application/x-todo-id";

type Props = {
  todo: TTodoListItem;
  canWrite: boolean;
  /** The project's groups, for "Move to" (empty: no groups). */
  groups?: readonly TTodoGroup[];
  onChanged(id: string): void;
  /** The todo is gone (deleted here). */
  onRemoved?(id: string): void;
  /** While the list selects todos: a check box replaces the row's own controls (with Shift, a range). */
  select?: { checked: boolean; onToggle(range: boolean): void };
};

/**
 * One todo: a one-click Complete, its content (linking to its chat), status as icon and word, what
 * its agent does, last activity; a menu with Start, Run again, Rename, Move to, Cancel (with Undo) and Delete.
 * Accept / Dismiss when PROPOSED. Rows can be dragged onto a group.
 */
export function TodoRow({ todo, canWrite, groups = [], onChanged, onRemoved, select }: Props) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(todo.content);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const menuRef = useRef<HTMLDetailsElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => {
    if (menuRef.current) menuRef.current.open = false;
  };
  // An open menu closes on a click elsewhere and on Escape, as menus do.
  useEffect(() => {
    if (!menuOpen) return;
    const onDown = (e: PointerEvent) => {
      if (!menuRef.current?.contains(e.target as Node)) closeMenu();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        closeMenu();
        menuRef.current?.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [menuOpen]);
  const proposed = todo.status === "PROPOSED";
  const text = truncate(todo.content);
  const allowed = allowedActions(todo.status);
  const done = todo.status === "DONE";
  const canComplete = canWrite && canMarkDone(todo.status);

  async function run(label: string, fn: () => Promise<unknown>, success?: string) {
    setBusy(label);
    setError(null);
    try {
      await fn();
      if (success) toast.success(success);
      onChanged(todo.id);
      return true;
    } catch (err) {
      setError(errorMessage(err));
      return false;
    } finally {
      setBusy(null);
    }
  }

  const act = (action: TStatusAction, success?: string) =>
    run(action, () => call("todo_updateStatus", { params: { todoId: todo.id }, body: ZTodoStatusUpdateInput.parse({ action }) }), success);

  /** A todo created without the agent: its waiting message starts a turn now. */
  const start = () => run("start", () => startWaiting(todo.id), "Agent started");

  /**
   * A new todo from this one (project_startFromTemplate): its text, group and agent settings, the
   * agent started on it now. This todo stays as it is, with its conversation.
   */
  const runAgain = () =>
    run("again", async () => {
      const copy = await startAgain(todo);
      toast.success("Started again as a new todo", { action: { label: "Open", onClick: () => router.push(todoHref(copy.projectId, copy.id)) } });
    });

  function cancelWithUndo() {
    let undone = false;
    let sent = false;
    const send = () => {
      if (undone || sent) return;
      sent = true;
      void act("cancel", "Todo cancelled");
    };
    toast(`Cancelling “${truncate(todo.content, 40)}”`, {
      description: "A cancelled todo takes no more messages.",
      duration: CANCEL_UNDO_MS,
      action: {
        label: "Undo",
        onClick: () => {
          undone = true;
        },
      },
      onAutoClose: send,
      onDismiss: send,
    });
  }

  async function rename(e: FormEvent) {
    e.preventDefault();
    const content = name.trim();
    if (!content) return setError("The todo needs some text.");
    if (content === todo.content) return setRenaming(false);
    if (await run("rename", () => call("todo_update", { params: { todoId: todo.id }, body: { content } }))) setRenaming(false);
  }

  const moveTo = (slug: string | null) => run("move", () => call("todo_update", { params: { todoId: todo.id }, body: { groupSlug: slug } }), slug ? `Moved to ${groups.find((g) => g.slug === slug)?.name ?? slug}` : "Moved out of its group");

  const remove = () =>
    run("delete", async () => {
      await call("todo_delete", { params: { todoId: todo.id }, body: { todoId: todo.id } });
      onRemoved?.(todo.id);
    }, "Todo deleted");

  const state = agentState(todo);
  return (
    <li
      className={select?.checked ? "todo-row selected" : "todo-row"}
      data-testid="todo-row"
      data-todo-id={todo.id}
      draggable={canWrite && !renaming && !select}
      onDragStart={(e) => {
        e.dataTransfer.setData(TODO_DRAG_TYPE, todo.id);
        e.dataTransfer.effectAllowed = "move";
      }}
    >
      {select ? (
        <input
          type="checkbox"
          className="todo-select"
          checked={select.checked}
          aria-label={`Select: ${text}`}
          onChange={() => undefined}
          onClick={(e) => select.onToggle(e.shiftKey)}
        />
      ) : canWrite && !proposed ? (
        <button
          type="button"
          role="checkbox"
          aria-checked={done}
          className="todo-check"
          disabled={!canComplete || busy !== null}
          aria-label={done ? `Done: ${text}` : `Mark done: ${text}`}
          title={done ? "Done" : canComplete ? "Mark done" : undefined}
          onClick={() => void act("complete", "Marked done")}
        >
          <span aria-hidden="true">{done ? "✓" : ""}</span>
        </button>
      ) : null}
      <div className="todo-main">
        {renaming ? (
          <form className="inline-fields" onSubmit={(e) => void rename(e)} aria-label={`Rename todo ${text}`} noValidate>
            <label htmlFor={`rename-${todo.id}`} className="visually-hidden">
              Todo text
            </label>
            <RenameInput id={`rename-${todo.id}`} value={name} onChange={setName} onCancel={() => setRenaming(false)} invalid={Boolean(error)} multiline />
            <button type="submit" disabled={busy !== null}>
              Save
            </button>
            <button type="button" className="secondary" onClick={() => setRenaming(false)}>
              Discard
            </button>
          </form>
        ) : (
          <Link href={todoHref(todo.projectId, todo.id)} className="todo-link" title={todo.content.length > text.length ? todo.content : undefined}>
            {text || "(empty)"}
          </Link>
        )}
        <div className="todo-meta">
          <StatusBadge status={todo.status} />
          {state ? <span data-testid="agent-state">{state}</span> : null}
          <time dateTime={new Date(todo.lastActivityAt).toISOString()} title={formatDateTime(todo.lastActivityAt)}>
            {formatRelative(todo.lastActivityAt)}
          </time>
        </div>
      </div>
      {proposed && canWrite && !select ? (
        <div className="todo-actions">
          <button type="button" onClick={() => act("accept")} disabled={busy !== null} aria-label={`Accept: ${text}`}>
            {busy === "accept" ? "Accepting…" : "Accept"}
          </button>
          <button type="button" className="secondary" onClick={() => act("dismiss")} disabled={busy !== null} aria-label={`Dismiss: ${text}`}>
            {busy === "dismiss" ? "Dismissing…" : "Dismiss"}
          </button>
        </div>
      ) : null}
      {canWrite && !proposed && !select ? (
        <details
          ref={menuRef}
          className="row-menu"
          onToggle={(e) => {
            const open = (e.currentTarget as HTMLDetailsElement).open;
            setMenuOpen(open);
            if (!open) setConfirmDelete(false);
          }}
        >
          <summary aria-label={`Actions for ${text}`} title="Actions">
            ⋯
          </summary>
          <div className="row-menu-panel" role="group" aria-label={`Actions for ${text}`}>
            {todo.status === "TODO" ? (
              <button
                type="button"
                onClick={() => {
                  closeMenu();
                  void start();
                }}
                disabled={busy !== null}
              >
                ▶ Start the agent
              </button>
            ) : (
              <button
                type="button"
                className="secondary"
                title="A new todo with the same text, group and agent settings, the agent started on it now"
                onClick={() => {
                  closeMenu();
                  void runAgain();
                }}
                disabled={busy !== null}
              >
                ↻ Run again
              </button>
            )}
            <button
              type="button"
              className="secondary"
              onClick={() => {
                closeMenu();
                setName(todo.content);
                setRenaming(true);
              }}
            >
              Rename
            </button>
            {groups.length > 0 ? (
              <label className="row-menu-move">
                Move to
                <select
                  value={todo.groupSlug ?? ""}
                  onChange={(e) => {
                    closeMenu();
                    void moveTo(e.target.value || null);
                  }}
                  disabled={busy !== null}
                >
                  <GroupOptions groups={groups} />
                </select>
              </label>
            ) : null}
            {allowed.includes("cancel") ? (
              <button
                type="button"
                className="secondary danger-outline"
                onClick={() => {
                  closeMenu();
                  cancelWithUndo();
                }}
                disabled={busy !== null}
              >
                Cancel todo…
              </button>
            ) : null}
            {confirmDelete ? (
              <div className="row-menu-confirm" role="alert">
                <span>Delete this todo and all its messages?</span>
                <button
                  type="button"
                  className="danger"
                  onClick={() => {
                    closeMenu();
                    void remove();
                  }}
                  disabled={busy !== null}
                >
                  Delete for good
                </button>
                <button type="button" className="secondary" onClick={() => setConfirmDelete(false)}>
                  Keep it
                </button>
              </div>
            ) : (
              <button type="button" className="secondary danger-outline" onClick={() => setConfirmDelete(true)}>
                Delete…
              </button>
            )}
          </div>
        </details>
      ) : null}
      <ErrorAlert message={error} className="todo-error" />
    </li>
  );
}
