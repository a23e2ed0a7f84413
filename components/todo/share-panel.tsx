"use client";

import { useState } from "react";
import { useOptionalShell } from "@/components/shell/shell-context";
import { call } from "@/lib/api/client";
import type { TProjectFull } from "@/lib/schemas/projects";
import type { TodoMeta } from "@/lib/ui/todo-chat-state";
import { useCopyText } from "@/lib/ui/use-copy-text";
import { useForm } from "@/components/ui/form";
import styles from "./todo.module.css";

export function shareUrl(todoId: string): string {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return `${origin}/share/${encodeURIComponent(todoId)}`;
}

/**
 * The caller's role on the todo's project, from the shell's project list (already loaded, and
 * live), so no request of its own: publishing is the owner's (docs/api.md "Who may publish").
 * Null until known.
 */
function useProjectRole(projectId: string): TProjectFull["role"] | null {
  const projects = useOptionalShell()?.projects;
  return projects?.phase === "ready" ? (projects.list.find((p) => p.id === projectId)?.role ?? null) : null;
}

/** Make public / private (the project's owner only), and the share link with a Copy button when public. */
export function SharePanel({ todo }: { todo: TodoMeta }) {
  const role = useProjectRole(todo.projectId);
  const [isPublic, setIsPublic] = useState(todo.isPublic);
  const { busy, alert, run } = useForm();
  const { ref: input, state: copied, copy: copyText, reset: resetCopied } = useCopyText<HTMLInputElement>(4000);
  const [seen, setSeen] = useState(todo.isPublic);
  // Another tab or client may change it: follow the todo as events and refetches bring it.
  if (todo.isPublic !== seen) {
    setSeen(todo.isPublic);
    setIsPublic(todo.isPublic);
  }

  async function toggle() {
    // A boolean the page sets: nothing for a schema to check here (the API checks it).
    const body = { isPublic: !isPublic };
    await run(async () => {
      await call("todo_update", { params: { todoId: todo.id }, body });
      setIsPublic(body.isPublic);
      resetCopied();
    });
  }

  return (
    <section className={styles.share} aria-label="Sharing">
      <div className={styles.shareRow}>
        <span data-testid="visibility">{isPublic ? "Public: anyone with the link can read this todo." : "Private: only you and people in the project can see it."}</span>
        {role === "owner" ? (
          <button type="button" className="secondary" onClick={() => void toggle()} disabled={busy} aria-busy={busy}>
            {isPublic ? "Make private" : "Make public"}
          </button>
        ) : role ? (
          <span className="muted" data-testid="publish-owner-only">
            Only the project&apos;s owner can make it public or private.
          </span>
        ) : null}
      </div>
      {isPublic ? (
        <div className={styles.shareRow}>
          <label htmlFor={`share-url-${todo.id}`} className="visually-hidden">
            Share link
          </label>
          <input
            ref={input}
            id={`share-url-${todo.id}`}
            type="text"
            readOnly
            value={shareUrl(todo.id)}
            className={styles.shareUrl}
            onFocus={(e) => e.currentTarget.select()}
            data-testid="share-url"
          />
          <button type="button" onClick={() => void copyText(shareUrl(todo.id))}>
            Copy link
          </button>
          <span role="status" className={styles.confirm}>
            {copied === "copied" ? "Copied" : copied === "selected" ? "Press Ctrl+C (⌘C) to copy the selected link" : ""}
          </span>
        </div>
      ) : null}
      {alert ? (
        <p className="error" role="alert" style={{ margin: 0 }}>
          Could not change sharing: {alert}
        </p>
      ) : null}
    </section>
  );
}
