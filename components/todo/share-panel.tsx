"use client";

import { useEffect, useRef, useState } from "react";
import { apiFetch } from "@/lib/api-client";
import { ZTodoUpdateInput } from "@/lib/schemas/todos";
import type { TodoMeta } from "@/lib/ui/todo-chat-state";
import { issueMessages } from "./form-validation";
import styles from "./todo.module.css";

export function shareUrl(todoId: string): string {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return `${origin}/share/${encodeURIComponent(todoId)}`;
}

/** Make public / private, and the share link with a Copy button when public. */
export function SharePanel({ todo }: { todo: TodoMeta }) {
  const [isPublic, setIsPublic] = useState(todo.isPublic);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<"copied" | "select" | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const [seen, setSeen] = useState(todo.isPublic);
  // Another tab or client may change it: follow the todo as events and refetches bring it.
  if (todo.isPublic !== seen) {
    setSeen(todo.isPublic);
    setIsPublic(todo.isPublic);
  }
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), 4000);
    return () => clearTimeout(t);
  }, [copied]);

  async function toggle() {
    const body = { isPublic: !isPublic };
    const parsed = ZTodoUpdateInput.safeParse(body);
    if (!parsed.success) return setError(issueMessages(parsed.error).join("; "));
    setBusy(true);
    setError(null);
    try {
      await apiFetch<null>(`/todos/${encodeURIComponent(todo.id)}`, { method: "PUT", body: parsed.data });
      setIsPublic(body.isPublic);
      setCopied(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    const url = shareUrl(todo.id);
    try {
      await navigator.clipboard.writeText(url);
      setCopied("copied");
    } catch {
      // No clipboard access (insecure origin, denied permission): select the text instead.
      input.current?.focus();
      input.current?.select();
      let ok = false;
      try {
        ok = document.execCommand("copy");
      } catch {
        ok = false;
      }
      setCopied(ok ? "copied" : "select");
    }
  }

  return (
    <section className={styles.share} aria-label="Sharing">
      <div className={styles.shareRow}>
        <span data-testid="visibility">{isPublic ? "Public: anyone with the link can read this todo." : "Private: only you and people in the project can see it."}</span>
        <button type="button" className="secondary" onClick={() => void toggle()} disabled={busy} aria-busy={busy}>
          {isPublic ? "Make private" : "Make public"}
        </button>
      </div>
      {isPublic ? (
        <div className={styles.shareRow}>
          <label htmlFor={`share-url-${todo.id}`} className={styles.srOnly}>
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
          <button type="button" onClick={() => void copy()}>
            Copy link
          </button>
          <span role="status" className={styles.confirm}>
            {copied === "copied" ? "Copied" : copied === "select" ? "Press Ctrl+C (⌘C) to copy the selected link" : ""}
          </span>
        </div>
      ) : null}
      {error ? (
        <p className="error" role="alert" style={{ margin: 0 }}>
          Could not change sharing: {error}
        </p>
      ) : null}
    </section>
  );
}
