"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { call } from "@/lib/api/client";
import { startAgain } from "@/lib/ui/agent-start";
import { todoHref } from "@/lib/ui/format";
import { errorMessage } from "@/lib/ui/form-issues";
import type { RealtimeStatus } from "@/lib/realtime-client";
import type { TStatusAction } from "@/lib/schemas/todos";
import type { TodoMeta } from "@/lib/ui/todo-chat-state";
import { SharePanel } from "./share-panel";
import { ACTION_LABEL, statusControls } from "@/lib/ui/status";
import { StatusBadge } from "./status-badge";
import { WorkflowDetails } from "./workflow-details";
import { TitleEditor } from "./title-editor";
import { FindInChat } from "./find-in-chat";
import { TodoGroupPicker } from "./group-picker";
import styles from "./todo.module.css";

const LIVE_LABEL: Record<RealtimeStatus, string> = { connecting: "Connecting…", live: "Live", offline: "Offline: reconnecting…" };

const NARROW = "(max-width: 640px)";

/** Finished, the todo offers to run again as a new one (its conversation stays as it is). */
const FINISHED = new Set(["DONE", "CANCELLED", "ERROR"]);

/** Whether the window is narrow (a phone): the header's actions then go into a menu. */
function useNarrow(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const q = window.matchMedia(NARROW);
      q.addEventListener("change", onChange);
      return () => q.removeEventListener("change", onChange);
    },
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}

/** `canWrite` false (a viewer, a public todo not one's own): no status actions and no sharing. */
export function TodoHeader({ todo, projectId, live, onChanged, canWrite }: { todo: TodoMeta; projectId: string; live: RealtimeStatus; onChanged: () => void; canWrite: boolean }) {
  const router = useRouter();
  const [busy, setBusy] = useState<TStatusAction | "again" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const reason = typeof todo.metadata?.error === "string" ? todo.metadata.error : null;

  async function act(action: TStatusAction) {
    setBusy(action);
    setError(null);
    try {
      await call("todo_updateStatus", { params: { todoId: todo.id }, body: { action } });
      onChanged();
    } catch (err) {
      setError(`${ACTION_LABEL[action]} failed: ${errorMessage(err)}`);
      onChanged();
    } finally {
      setBusy(null);
    }
  }

  /** A new todo from this one, started; the chat moves to it. */
  async function again() {
    setBusy("again");
    setError(null);
    try {
      const copy = await startAgain(todo);
      toast.success("Started again as a new todo");
      router.push(todoHref(copy.projectId, copy.id));
    } catch (err) {
      setError(`Run again failed: ${errorMessage(err)}`);
      setBusy(null);
    }
  }

  const actions = canWrite ? statusControls(todo.status) : [];
  const narrow = useNarrow();
  const buttons = actions.map((action) => (
    <button
      key={action}
      type="button"
      className={action === "cancel" || action === "dismiss" ? "secondary danger-outline" : action === "complete" ? "secondary" : undefined}
      disabled={busy !== null}
      aria-busy={busy === action}
      onClick={() => void act(action)}
    >
      {ACTION_LABEL[action]}
    </button>
  ));
  if (canWrite && FINISHED.has(todo.status))
    buttons.push(
      <button key="again" type="button" className="secondary" disabled={busy !== null} aria-busy={busy === "again"} title="A new todo with the same text, group and agent settings, the agent started on it now" onClick={() => void again()}>
        ↻ Run again
      </button>,
    );
  // Beside the status on a wide window; in the actions menu on a phone, where the title needs the room.
  const group = <TodoGroupPicker todoId={todo.id} projectId={projectId} groupSlug={todo.groupSlug} canWrite={canWrite} onMoved={onChanged} />;
  return (
    <header className={`card ${styles.header}`}>
      <div className={styles.titleRow}>
        <Link href={`/projects/${encodeURIComponent(projectId)}`} className={styles.back}>
          ← <span className={styles.backText}>Back to project</span>
        </Link>
        {editing ? (
          <TitleEditor
            todoId={todo.id}
            content={todo.content}
            onDone={(saved) => {
              setEditing(false);
              if (saved) onChanged();
              // Focus goes back to the pencil, not to the page's start.
              requestAnimationFrame(() => editButton.current?.focus());
            }}
          />
        ) : (
          <div className={styles.titleWrap}>
            <h1 className={styles.title}>{todo.content}</h1>
            {canWrite ? (
              <button ref={editButton} type="button" className={`link-button ${styles.editTitle}`} aria-label="Edit the todo's text" title="Edit the todo's text" onClick={() => setEditing(true)}>
                ✎
              </button>
            ) : null}
          </div>
        )}
        <p className={styles.statusLine}>
          <StatusBadge status={todo.status} />
          <span className={`muted ${styles.live}`} data-testid="realtime-status" data-live={live}>
            {LIVE_LABEL[live]}
          </span>
          {narrow ? null : group}
        </p>
        {narrow && canWrite ? (
          <details className={styles.actionsMenu}>
            <summary aria-label="Todo actions">⋯</summary>
            <div className={styles.menuPanel}>
              <div className={styles.controls} role="group" aria-label="Todo status actions">
                {buttons}
              </div>
              {group}
              <SharePanel todo={todo} />
            </div>
          </details>
        ) : null}
      </div>
      {todo.assignedAgent ? <p className="muted" style={{ margin: 0 }}>Agent: {todo.assignedAgent}</p> : null}
      {todo.status === "ERROR" ? (
        <p className={styles.errorReason} data-testid="error-reason">
          <strong>The agent stopped with an error:</strong> {reason ?? "no reason was recorded"}
        </p>
      ) : null}
      {/* One row on a wide window: the status actions, then sharing (the chat keeps the height). */}
      {narrow || !canWrite ? null : (
        <div className={styles.toolbar}>
          {buttons.length > 0 ? (
            <div className={styles.controls} role="group" aria-label="Todo status actions">
              {buttons}
            </div>
          ) : null}
          <SharePanel todo={todo} />
        </div>
      )}
      {error ? (
        <p className="error" role="alert" style={{ margin: 0 }}>
          {error}
        </p>
      ) : null}
      {/* Side by side while closed; an open one takes the whole row. */}
      <div className={styles.disclosures}>
        <WorkflowDetails todoId={todo.id} canWrite={canWrite} />
        <FindInChat todoId={todo.id} projectId={projectId} />
      </div>
    </header>
  );
}
