"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { useSearchParams } from "next/navigation";
import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { formatDateTime, todoHref } from "@/lib/ui/format";
import { useDebounced } from "@/lib/ui/use-debounced";
import { hasSearchWord } from "@/lib/ui/snippet";
import { useMorePages } from "@/lib/ui/use-more-pages";
import type { TMessageSearchHit } from "@/lib/schemas/search";
import { Highlighted } from "@/components/shell/search-dialog";
import { Loading, LoadError } from "@/components/ui/load-state";
import styles from "./todo.module.css";

// "Find in this chat": the todo's own messages that match (todo_searchMessages with `todoId`),
// newest first, older matches on demand. A match opens at its message (`?message=<id>`: the chat
// loads older pages until it is there, scrolls to it and marks it), however far back it is.

const FROM = { any: "Anyone", user: "People", assistant: "The agent" } as const;
type From = keyof typeof FROM;
const PAGE = 10;

/** A message's author as a match names it. */
const byline = (role: TMessageSearchHit["role"]) => (role === "assistant" ? "The agent" : role === "system" ? "System" : "A person");

function Matches({ todoId, projectId, q, from }: { todoId: string; projectId: string; q: string; from: From }) {
  const query = { q, todoId, limit: PAGE, ...(from === "any" ? {} : { role: from }) };
  const first = useOperation("todo_searchMessages", { query }, { keepPreviousData: false });
  const more = useMorePages(first.data, (cursor) => call("todo_searchMessages", { query: { ...query, cursor } }));
  const current = useSearchParams().get("message");
  if (first.error) return <LoadError inline what="the matches" message={first.error.message} onRetry={() => void first.mutate()} />;
  if (!first.data) return <Loading inline label="Finding" lines={2} />;
  if (more.items.length === 0)
    return (
      <p className="muted" role="status">
        No message {from === "any" ? "" : `from ${FROM[from].toLowerCase()} `}in this chat matches “{q}”.
      </p>
    );
  return (
    <>
      <p className="muted" role="status" style={{ margin: 0 }}>
        {more.cursor ? `The newest ${more.items.length} matches` : more.items.length === 1 ? "1 match" : `${more.items.length} matches`}, newest first
      </p>
      <ol className={styles.findList} aria-label="Matches">
        {more.items.map((hit) => (
          <li key={hit.id}>
            <Link href={todoHref(projectId, todoId, hit.messageId)} replace scroll={false} aria-current={hit.messageId === current ? "true" : undefined} data-testid="find-match">
              <span className={styles.findMeta}>
                {byline(hit.role)} · <time dateTime={new Date(hit.createdAt).toISOString()}>{formatDateTime(hit.createdAt)}</time>
              </span>
              <span className={styles.findSnippet}>
                <Highlighted snippet={hit.snippet} />
              </span>
            </Link>
          </li>
        ))}
      </ol>
      {more.error ? <LoadError inline what="older matches" message={more.error} onRetry={() => void more.loadMore()} /> : null}
      {more.cursor ? (
        <button type="button" className="secondary" onClick={() => void more.loadMore()} disabled={more.loading} aria-busy={more.loading}>
          {more.loading ? "Loading…" : "Older matches"}
        </button>
      ) : null}
    </>
  );
}

/** The todo's "Find in this chat" disclosure, for anyone who can read the todo. */
export function FindInChat({ todoId, projectId }: { todoId: string; projectId: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [from, setFrom] = useState<From>("any");
  const input = useRef<HTMLInputElement>(null);
  const q = useDebounced(text.trim(), 250);
  const hasWord = hasSearchWord(q);
  return (
    <details
      className={styles.details}
      data-testid="find-in-chat"
      onToggle={(e) => {
        const isOpen = e.currentTarget.open;
        setOpen(isOpen);
        if (isOpen) requestAnimationFrame(() => input.current?.focus());
      }}
    >
      <summary>Find in this chat</summary>
      {open ? (
        <div className={styles.find} role="search">
          <div className={styles.findFields}>
            <input ref={input} type="search" aria-label="Find in this chat" placeholder="Words in a message" value={text} maxLength={500} onChange={(e) => setText(e.target.value)} />
            <select aria-label="From" value={from} onChange={(e) => setFrom(e.target.value as From)}>
              {Object.entries(FROM).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          {hasWord ? (
            // Keyed by the search: older matches loaded for another one never show under this one.
            <Matches key={`${from}:${q}`} todoId={todoId} projectId={projectId} q={q} from={from} />
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              Type a word to find every message of this chat that has it, also ones not loaded yet.
            </p>
          )}
        </div>
      ) : null}
    </details>
  );
}
