"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { useRealtime, type RealtimeEvent } from "@/lib/realtime-client";
import type { TPendingTask, TStatusAction } from "@/lib/schemas/todos";
import { startWaiting } from "@/lib/ui/agent-start";
import { errorMessage } from "@/lib/ui/form-issues";
import { formatDateTime, formatDue, todoHref, truncate } from "@/lib/ui/format";
import { useShell } from "@/components/shell/shell-context";
import { ErrorAlert } from "@/components/ui/error-alert";
import { LoadError, Loading } from "@/components/ui/load-state";
import styles from "./upcoming.module.css";

/** The events of a project's room that can add, move or remove a pending task. */
const CHANGES = new Set(["todo.created", "todo.updated", "todo.status", "todo.deleted", "message.created", "message.updated"]);

/** At most this many project rooms are watched (the handshake takes 100 targets in all). */
const WATCHED_PROJECTS = 50;

/** Watches one project's room while mounted: renders nothing. */
function ProjectWatch({ projectId, onEvent, onLive }: { projectId: string; onEvent: (e: RealtimeEvent) => void; onLive: () => void }) {
  useRealtime({ kind: "project", id: projectId }, onEvent, onLive);
  return null;
}

/** The time "in 5 min" is counted from: read again right after each new answer and every 30 s. */
function useNow(answer: unknown): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const read = () => setNow(Date.now());
    const first = setTimeout(read, 0);
    const timer = setInterval(read, 30_000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [answer]);
  return now;
}

/**
 * Everything that waits on the user across their projects (task_getPending): messages scheduled
 * to go to the agent, soonest first, each can be sent now or edited in its chat; and todos the
 * agent proposed, to accept or dismiss. Live: it follows the rooms of the user's projects.
 */
export function Upcoming() {
  const pending = useOperation("task_getPending", {});
  const { projects } = useShell();
  const now = useNow(pending.data);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = () => void pending.mutate();
  const onEvent = (e: RealtimeEvent) => {
    if (CHANGES.has(e.type)) refresh();
  };
  const watched = projects.phase === "ready" ? projects.list.slice(0, WATCHED_PROJECTS).map((p) => p.id) : [];

  async function run(task: TPendingTask, what: string, fn: () => Promise<unknown>, done: string) {
    setBusy(`${task.id}:${what}`);
    setError(null);
    try {
      await fn();
      toast.success(done);
      await pending.mutate();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }
  const sendNow = (task: TPendingTask) => run(task, "send", () => startWaiting(task.todoId, task.messageId ?? undefined), "Sent to the agent");
  const decide = (task: TPendingTask, action: Extract<TStatusAction, "accept" | "dismiss">) =>
    run(task, action, () => call("todo_updateStatus", { params: { todoId: task.todoId }, body: { action } }), action === "accept" ? "Todo accepted" : "Todo dismissed");

  const scheduled = pending.data?.filter((t) => t.kind === "scheduled_message") ?? [];
  const proposed = pending.data?.filter((t) => t.kind === "proposed_todo") ?? [];

  return (
    <>
      {watched.map((id) => (
        <ProjectWatch key={id} projectId={id} onEvent={onEvent} onLive={refresh} />
      ))}
      <header className={styles.header}>
        <h1>Upcoming</h1>
        <p className="muted">Messages you scheduled for the agent, and todos it proposed, across your projects.</p>
      </header>
      <ErrorAlert message={error} />
      {pending.data ? (
        <>
          <section className="card" aria-labelledby="scheduled-heading" data-testid="scheduled-section">
            <h2 id="scheduled-heading">
              Scheduled messages <span className={styles.count}>({scheduled.length})</span>
            </h2>
            {scheduled.length === 0 ? (
              <p className="muted" data-testid="scheduled-empty">
                Nothing scheduled. In a todo, write a message and choose a time to send it; from the command line, <code>todo send &lt;todoId&gt; &quot;…&quot; --at &quot;in 2h&quot;</code>.
              </p>
            ) : (
              <ol className={styles.list}>
                {scheduled.map((task) => {
                  const label = truncate(task.todoContent, 80) || "(empty todo)";
                  return (
                    <li key={task.id} className={styles.item} data-testid="pending-task" data-kind={task.kind}>
                      {task.dueAt !== null ? (
                        <time className={styles.when} dateTime={new Date(task.dueAt).toISOString()} title={formatDateTime(task.dueAt)} data-due={task.dueAt <= now} suppressHydrationWarning>
                          {formatDue(task.dueAt, now)}
                        </time>
                      ) : (
                        <span className={styles.when}>—</span>
                      )}
                      <div className={styles.main}>
                        <Link href={todoHref(task.projectId, task.todoId, task.messageId)} className={styles.todo}>
                          {label}
                        </Link>
                        <span className={styles.project}>{task.projectName}</span>
                        {task.messageContent && task.messageContent !== task.todoContent ? (
                          <p className={styles.message} data-testid="pending-message">
                            {truncate(task.messageContent, 240)}
                          </p>
                        ) : null}
                      </div>
                      <div className={styles.actions}>
                        <button type="button" onClick={() => void sendNow(task)} disabled={busy !== null} aria-busy={busy === `${task.id}:send`} aria-label={`Send now: ${label}`}>
                          {busy === `${task.id}:send` ? "Sending…" : "Send now"}
                        </button>
                        <Link href={todoHref(task.projectId, task.todoId, task.messageId)} className="button-link" aria-label={`Edit in the chat: ${label}`}>
                          Edit
                        </Link>
                      </div>
                    </li>
                  );
                })}
              </ol>
            )}
          </section>
          <section className="card" aria-labelledby="proposed-heading" data-testid="proposed-section">
            <h2 id="proposed-heading">
              Proposed todos <span className={styles.count}>({proposed.length})</span>
            </h2>
            {proposed.length === 0 ? (
              <p className="muted" data-testid="proposed-empty">
                No proposals waiting. When the agent proposes a todo, you accept or dismiss it here or in its project.
              </p>
            ) : (
              <ul className={styles.list}>
                {proposed.map((task) => {
                  const label = truncate(task.todoContent, 80) || "(empty todo)";
                  return (
                    <li key={task.id} className={styles.item} data-testid="pending-task" data-kind={task.kind}>
                      <time className={styles.when} dateTime={new Date(task.createdAt).toISOString()} title={formatDateTime(task.createdAt)} suppressHydrationWarning>
                        proposed
                      </time>
                      <div className={styles.main}>
                        <Link href={todoHref(task.projectId, task.todoId)} className={styles.todo}>
                          {label}
                        </Link>
                        <span className={styles.project}>{task.projectName}</span>
                      </div>
                      <div className={styles.actions}>
                        <button type="button" onClick={() => void decide(task, "accept")} disabled={busy !== null} aria-label={`Accept: ${label}`}>
                          {busy === `${task.id}:accept` ? "Accepting…" : "Accept"}
                        </button>
                        <button type="button" className="secondary" onClick={() => void decide(task, "dismiss")} disabled={busy !== null} aria-label={`Dismiss: ${label}`}>
                          {busy === `${task.id}:dismiss` ? "Dismissing…" : "Dismiss"}
                        </button>
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </>
      ) : pending.error ? (
        <LoadError what="your upcoming tasks" message={pending.error.message} onRetry={refresh} />
      ) : (
        <Loading label="Loading your upcoming tasks…" />
      )}
    </>
  );
}
