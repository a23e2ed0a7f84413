"use client";

import { useId, useRef, useState } from "react";
import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import type { TBlock } from "@/lib/schemas/todos";
import { errorMessage } from "@/lib/ui/form-issues";
import { todoTitle } from "@/lib/ui/format";
import { statusIconStyle, statusLabel } from "@/lib/ui/status";
import { useDebounced } from "@/lib/ui/use-debounced";
import { Loading, LoadError } from "@/components/ui/load-state";
import styles from "./todo.module.css";

// "Link todos" on a block (todo_linkBlockSubTodo): a writer ties other todos of the project to a
// checklist item, e.g. the todo that does that item's work. Links are added, never removed (the
// API has no unlink), so each one is asked for by name. The block's live sub-todo cards
// (components/todo/tool-step.tsx, SubTodoCard) show them once its block.updated event arrives.

const SHOWN = 8;

/** The project's todos that match the words, without the block's own todo and the ones already linked. */
function Candidates({ block, projectId, q, onLinked }: { block: TBlock; projectId: string; q: string; onLinked(title: string): void }) {
  // Room for the block's own todo and the ones already linked, which are not offered.
  const { data, error, mutate } = useOperation("todo_list", { params: { projectId }, query: { limit: SHOWN + 1 + block.subTodoIds.length, ...(q ? { search: q } : {}) } }, { keepPreviousData: true });
  const [busy, setBusy] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (error) return <LoadError inline what="the todos" message={error.message} onRetry={() => void mutate()} />;
  if (!data) return <Loading inline label="Loading todos" lines={2} />;
  const items = data.items.filter((t) => t.id !== block.todoId && !block.subTodoIds.includes(t.id)).slice(0, SHOWN);

  async function link(id: string, title: string) {
    setBusy(id);
    setFailed(null);
    try {
      await call("todo_linkBlockSubTodo", { params: { todoId: block.todoId, blockId: block.blockId }, body: { subTodoIds: [id] } });
      onLinked(title);
    } catch (err) {
      setFailed(`Could not link “${title}”: ${errorMessage(err)}`);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      {items.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          {q ? `No other todo of this project matches “${q}”.` : "This project has no other todo to link."}
        </p>
      ) : (
        <ul className={styles.linkList} aria-label="Todos to link">
          {items.map((t) => {
            const title = todoTitle(t.content);
            return (
              <li key={t.id}>
                <span className={styles.linkTitle}>{title}</span>
                <span className={styles.badge} data-status={t.status} style={statusIconStyle(t.status)}>
                  {statusLabel(t.status)}
                </span>
                <button type="button" className="secondary" disabled={busy !== null} aria-busy={busy === t.id} aria-label={`Link “${title}”`} onClick={() => void link(t.id, title)}>
                  {busy === t.id ? "Linking…" : "Link"}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {failed ? (
        <p className="error" role="alert" style={{ margin: 0 }}>
          {failed}
        </p>
      ) : null}
    </>
  );
}

/** The block's "Link todos" button and, while open, a search over the project's todos to link. */
export function LinkTodos({ block, projectId, label }: { block: TBlock; projectId: string; label: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [linked, setLinked] = useState<string | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const q = useDebounced(text.trim(), 250);

  function close() {
    setOpen(false);
    setText("");
    setLinked(null);
    toggle.current?.focus();
  }

  return (
    <div className={styles.linkTodos}>
      <button
        ref={toggle}
        type="button"
        className="link-button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={open ? `Done linking todos to “${label}”` : `Link todos to “${label}”`}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {open ? "Done linking" : "Link todos"}
      </button>
      {open ? (
        <div
          id={id}
          className={styles.linkPanel}
          role="group"
          aria-label={`Link todos to “${label}”`}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.stopPropagation();
              close();
            }
          }}
        >
          <input
            type="search"
            autoFocus
            aria-label="Find a todo of this project"
            placeholder="Find a todo of this project"
            value={text}
            maxLength={200}
            onChange={(e) => {
              setText(e.target.value);
              setLinked(null);
            }}
          />
          <p className="muted" style={{ margin: 0, fontSize: "0.8rem" }}>
            A linked todo shows under this item with its status. Links stay: they cannot be removed.
          </p>
          <Candidates block={block} projectId={projectId} q={q} onLinked={(title) => setLinked(`Linked “${title}”.`)} />
          <p className="muted" role="status" style={{ margin: 0 }}>
            {linked ?? ""}
          </p>
        </div>
      ) : null}
    </div>
  );
}
