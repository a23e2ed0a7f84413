"use client";

import { useId, useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import { errorMessage } from "@/lib/ui/form-issues";
import { RenameInput } from "@/components/ui/rename-input";
import styles from "./todo.module.css";

/**
 * The todo's text, edited in its header (todo_update `content`): lines are kept, Enter saves,
 * Shift+Enter adds a line, Escape discards. Unchanged text closes without a request.
 */
export function TitleEditor({ todoId, content, onDone }: { todoId: string; content: string; onDone: (saved: boolean) => void }) {
  const id = useId();
  const [text, setText] = useState(content);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(e?: FormEvent) {
    e?.preventDefault();
    const next = text.trim();
    if (!next) return setError("The todo needs some text.");
    if (next === content) return onDone(false);
    setBusy(true);
    setError(null);
    try {
      await call("todo_update", { params: { todoId }, body: { content: next } });
      onDone(true);
    } catch (err) {
      setError(`Could not save the text: ${errorMessage(err)}`);
      setBusy(false);
    }
  }

  return (
    <form className={styles.titleEditor} onSubmit={(e) => void save(e)} aria-label="Edit the todo's text" noValidate>
      <label htmlFor={id} className="visually-hidden">
        Todo text
      </label>
      <RenameInput id={id} value={text} onChange={(next) => (setText(next), setError(null))} onCancel={() => onDone(false)} invalid={Boolean(error)} multiline describedBy={error ? `${id}-error` : `${id}-hint`} />
      {error ? (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="muted">
          Enter saves · Shift+Enter adds a line · Escape discards
        </p>
      )}
      <div className={styles.titleEditorActions}>
        <button type="submit" disabled={busy} aria-busy={busy}>
          Save
        </button>
        <button type="button" className="secondary" onClick={() => onDone(false)} disabled={busy}>
          Discard
        </button>
      </div>
    </form>
  );
}
