"use client";

import Link from "next/link";
import { useState } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { call } from "@/lib/api/client";
import { ZTodoStatusUpdateInput, type TStatusAction, type TTodoListItem } from "@/lib/schemas/todos";
import { formatDateTime, formatRelative, truncate } from "@/lib/ui/format";
import { errorMessage } from "@/lib/ui/form-issues";
import { statusLabel } from "@/lib/ui/status";

export function StatusBadge({ status }: { status: TTodoListItem["status"] }) {
  return (
    <span className={`status status-${status.toLowerCase()}`} data-testid="todo-status" data-status={status}>
      {statusLabel(status)}
    </span>
  );
}

/** One todo: its content (linking to its chat), status, last activity; Accept / Dismiss when PROPOSED. */
export function TodoRow({ todo, canWrite, onChanged }: { todo: TTodoListItem; canWrite: boolean; onChanged(id: string): void }) {
  const [busy, setBusy] = useState<TStatusAction | null>(null);
  const [error, setError] = useState<string | null>(null);
  const proposed = todo.status === "PROPOSED";
  const text = truncate(todo.content);

  async function act(action: TStatusAction) {
    const body = ZTodoStatusUpdateInput.parse({ action });
    setBusy(action);
    setError(null);
    try {
      await call("todo_updateStatus", { params: { todoId: todo.id }, body });
      onChanged(todo.id);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <li className="todo-row" data-testid="todo-row" data-todo-id={todo.id}>
      <div className="todo-main">
        <Link href={`/projects/${todo.projectId}/todos/${todo.id}`} className="todo-link" title={todo.content.length > text.length ? todo.content : undefined}>
          {text || "(empty)"}
        </Link>
        <div className="todo-meta">
          <StatusBadge status={todo.status} />
          <time dateTime={new Date(todo.lastActivityAt).toISOString()} title={formatDateTime(todo.lastActivityAt)}>
            {formatRelative(todo.lastActivityAt)}
          </time>
        </div>
      </div>
      {proposed && canWrite ? (
        <div className="todo-actions">
          <button type="button" onClick={() => act("accept")} disabled={busy !== null} aria-label={`Accept: ${text}`}>
            {busy === "accept" ? "Accepting…" : "Accept"}
          </button>
          <button type="button" className="secondary" onClick={() => act("dismiss")} disabled={busy !== null} aria-label={`Dismiss: ${text}`}>
            {busy === "dismiss" ? "Dismissing…" : "Dismiss"}
          </button>
        </div>
      ) : null}
      <ErrorAlert message={error} className="todo-error" />
    </li>
  );
}
