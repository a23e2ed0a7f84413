"use client";

import { Fragment, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useRouter } from "next/navigation";
import { useOperation } from "@/lib/api/swr";
import { todoHref } from "@/lib/ui/format";
import { useDebounced } from "@/lib/ui/use-debounced";
import { hasSearchWord, snippetParts } from "@/lib/ui/snippet";
import type { TSnippet } from "@/lib/schemas/search";
import { Loading, LoadError } from "@/components/ui/load-state";
import styles from "./search-dialog.module.css";

// ⌘K / Ctrl+K search across every project (todo_searchUnified): exact matches grouped per todo
// with highlighted snippets, then related todos and notes. Arrow keys move, Enter opens, Escape
// closes. Opening a match goes to its todo's chat with `?message=<id>`, where the chat scrolls to
// the message and marks it (components/todo/message-list.tsx).

/** The snippet's text with its matched words in <mark>: text nodes only, never markup from the server. */
export function Highlighted({ snippet }: { snippet: TSnippet }): ReactNode {
  return (
    <>
      {snippetParts(snippet).map((part, i) => (part.hit ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>))}
    </>
  );
}

type Entry = { key: string; href: string | null; node: ReactNode };

export function SearchDialog() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  // What had focus before the dialog opened: it gets focus back when the dialog closes.
  const returnTo = useRef<HTMLElement | null>(null);
  const router = useRouter();
  const listId = useId();
  const q = useDebounced(text.trim(), 200);
  const hasWord = hasSearchWord(q);
  const { data, error, isLoading, mutate } = useOperation("todo_searchUnified", open && hasWord ? { query: { q } } : null, { keepPreviousData: true });

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (open) return inputRef.current?.focus();
    const back = returnTo.current;
    returnTo.current = null;
    if (back?.isConnected) back.focus();
  }, [open]);

  const entries = useMemo<{ exact: Entry[]; related: Entry[] }>(() => {
    if (!data) return { exact: [], related: [] };
    return {
      exact: data.exact.map((g) => ({
        key: `t:${g.todoId}`,
        href: todoHref(g.projectId, g.todoId, g.best.messageId),
        node: (
          <>
            <span className={styles.title}>{g.todoTitle}</span>
            <span className={styles.meta}>
              {g.projectName} · {g.matchCount} {g.matchCount === 1 ? "match" : "matches"}
            </span>
            <span className={styles.snippet}>
              <Highlighted snippet={g.best.snippet} />
            </span>
          </>
        ),
      })),
      related: data.related.map((r) => ({
        key: `${r.kind}:${r.id}`,
        href: r.kind === "todo" && r.projectId ? todoHref(r.projectId, r.id) : null,
        node: (
          <>
            <span className={styles.title}>{r.title}</span>
            <span className={styles.meta}>{r.kind === "note" ? (r.projectId ? "Project note" : "Personal note") : "Todo"} · distance {r.score.toFixed(2)}</span>
          </>
        ),
      })),
    };
  }, [data]);
  const flat = [...entries.exact, ...entries.related];

  function show() {
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) returnTo.current = document.activeElement;
    setOpen(true);
  }
  const close = () => {
    setOpen(false);
    setActive(0);
  };
  const go = (entry: Entry | undefined) => {
    if (!entry?.href) return;
    returnTo.current = null; // the page changes: focus belongs to the todo's chat
    close();
    router.push(entry.href);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    } else if (e.key === "Tab") {
      // A modal dialog keeps focus inside: Tab cycles through its own controls only.
      const items = Array.from(e.currentTarget.querySelectorAll<HTMLElement>("input, button:not(:disabled), a[href]"));
      if (items.length === 0) return;
      e.preventDefault();
      const at = items.indexOf(document.activeElement as HTMLElement);
      items[(at + (e.shiftKey ? -1 : 1) + items.length) % items.length]!.focus();
    } else if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, Math.max(flat.length - 1, 0)));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(flat[active]);
    }
  };

  const opener = (
    <button type="button" className={`secondary ${styles.opener}`} onClick={show} aria-keyshortcuts="Control+K Meta+K" title="Search all projects (Ctrl+K / ⌘K)">
      Search <kbd>Ctrl K</kbd>
    </button>
  );
  const option = (entry: Entry, index: number) => (
    <li
      key={entry.key}
      id={`${listId}-${index}`}
      role="option"
      aria-selected={index === active}
      className={index === active ? `${styles.option} ${styles.active}` : styles.option}
      onMouseEnter={() => setActive(index)}
      onClick={() => go(entry)}
      data-testid="search-result"
    >
      {entry.node}
    </li>
  );
  // The dialog goes to the end of the body: the opener may sit in a sidebar that is folded away.
  // The opener stays the same element whether or not the dialog is open, so focus can go back to it.
  return (
    <>
      {opener}
      {open && createPortal(
        <div className={styles.backdrop} onMouseDown={(e) => e.target === e.currentTarget && close()}>
          <div role="dialog" aria-modal="true" aria-label="Search" className={`card ${styles.dialog}`} onKeyDown={onKeyDown}>
            <input
              ref={inputRef}
              type="search"
              role="combobox"
              aria-expanded={flat.length > 0}
              aria-controls={listId}
              aria-activedescendant={flat.length ? `${listId}-${active}` : undefined}
              aria-label="Search messages, todos and notes"
              placeholder="Search messages, todos and notes"
              value={text}
              maxLength={500}
              onChange={(e) => {
                setText(e.target.value);
                setActive(0);
              }}
            />
            <div className={styles.results}>
              {!hasWord ? (
                <p className="muted">Type to search every project you can open.</p>
              ) : error ? (
                <LoadError inline what="search results" message={error.message} onRetry={() => void mutate()} />
              ) : isLoading && !data ? (
                <Loading inline label="Searching" lines={3} />
              ) : flat.length === 0 ? (
                <p className="muted" role="status">
                  Nothing matches “{q}”.
                </p>
              ) : (
                <ul id={listId} role="listbox" aria-label="Search results" className={styles.list}>
                  {entries.exact.length > 0 && <li role="presentation" className={styles.heading}>Messages</li>}
                  {entries.exact.map((e, i) => option(e, i))}
                  {entries.related.length > 0 && <li role="presentation" className={styles.heading}>Related</li>}
                  {entries.related.map((e, i) => option(e, entries.exact.length + i))}
                </ul>
              )}
            </div>
          </div>
        </div>,
        document.body,
      )}
    </>
  );
}
