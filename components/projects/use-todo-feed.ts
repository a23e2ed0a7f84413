"use client";

import { useCallback, useReducer, useRef, useState } from "react";
import { call } from "@/lib/api/client";
import { EVERY_ANSWER, useOperation } from "@/lib/api/swr";
import type { OperationResult } from "@/lib/api/types";
import type { TTodo, TTodoListItem, TTodoStatus } from "@/lib/schemas/todos";
import { errorMessage } from "@/lib/ui/form-issues";

// One project's todos, newest activity first, paged with todo_list's cursor and kept current by
// live events. Items are held by id, so a todo that arrives both live and in a page shows once.
// The first page is read through the data layer (lib/api/swr.ts, `todo_list` keyed by operation):
// each of its answers is merged into what is held, the newer version of a todo winning.

type Page = OperationResult<"todo_list">;

type FeedState = {
  /** projectId + search of the data held; a different key means the data is stale. */
  key: string;
  phase: "loading" | "ready";
  byId: Record<string, TTodoListItem>;
  nextCursor: number | null;
  /** An older page was loaded after the first. */
  paged: boolean;
  more: "idle" | "loading" | "error";
  moreError: string | null;
};

type Action =
  | { type: "first"; key: string; page: Page }
  | { type: "merge"; key: string; page: Page }
  | { type: "more-start"; key: string }
  | { type: "more"; key: string; page: Page }
  | { type: "more-error"; key: string; message: string }
  | { type: "upsert"; item: TTodoListItem; insert: boolean }
  | { type: "status"; id: string; status: TTodoStatus }
  | { type: "remove"; id: string };

const initial = (key: string): FeedState => ({ key, phase: "loading", byId: {}, nextCursor: null, paged: false, more: "idle", moreError: null });

/** The later of two versions of one todo: a response that left before a live event must not undo it. */
function newer(held: TTodoListItem | undefined, incoming: TTodoListItem): TTodoListItem {
  if (!held) return incoming;
  return incoming.updatedAt >= held.updatedAt || incoming.lastActivityAt > held.lastActivityAt ? incoming : held;
}

function withItems(byId: Record<string, TTodoListItem>, items: TTodoListItem[]): Record<string, TTodoListItem> {
  const next = { ...byId };
  for (const item of items) next[item.id] = newer(next[item.id], item);
  return next;
}

function reducer(state: FeedState, a: Action): FeedState {
  switch (a.type) {
    case "first": {
      // What is held is replaced by the page, but a held version newer than the page's stays.
      const held: Record<string, TTodoListItem> = {};
      if (a.key === state.key) for (const item of a.page.items) if (state.byId[item.id]) held[item.id] = state.byId[item.id]!;
      return { ...initial(a.key), phase: "ready", byId: withItems(held, a.page.items), nextCursor: a.page.nextCursor };
    }
    case "merge":
      return a.key === state.key && state.phase === "ready" ? { ...state, byId: withItems(state.byId, a.page.items) } : state;
    case "more-start":
      return a.key === state.key ? { ...state, more: "loading", moreError: null } : state;
    case "more":
      return a.key === state.key ? { ...state, more: "idle", paged: true, byId: withItems(state.byId, a.page.items), nextCursor: a.page.nextCursor } : state;
    case "more-error":
      return a.key === state.key ? { ...state, more: "error", moreError: a.message } : state;
    case "upsert": {
      const known = a.item.id in state.byId;
      if (!known && !a.insert) return state;
      return { ...state, byId: { ...state.byId, [a.item.id]: newer(state.byId[a.item.id], a.item) } };
    }
    case "status": {
      const item = state.byId[a.id];
      return item ? { ...state, byId: { ...state.byId, [a.id]: { ...item, status: a.status } } } : state;
    }
    case "remove": {
      if (!(a.id in state.byId)) return state;
      const next = { ...state.byId };
      delete next[a.id];
      return { ...state, byId: next };
    }
  }
}

/** What todo_list's `search` matches: a substring of the content (any case) or a status name. */
export function matchesSearch(item: TTodoListItem, search: string): boolean {
  if (!search) return true;
  return item.content.toLowerCase().includes(search.toLowerCase()) || item.status === search.toUpperCase();
}

/** A full Todo (todo_get, project_createTodo) as a list item. */
export function toListItem(todo: TTodo): TTodoListItem {
  const { messages: _messages, blocks: _blocks, hasMoreMessages: _more, ...rest } = todo;
  const { workflow: _workflow, ...item } = rest as typeof rest & { workflow?: unknown };
  return item;
}

export function byActivity(a: TTodoListItem, b: TTodoListItem): number {
  return b.lastActivityAt - a.lastActivityAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** An older page (todo_list's cursor), fetched once when asked for. */
function fetchPage(projectId: string, search: string, limit: number, cursor: number): Promise<Page> {
  return call("todo_list", { params: { projectId }, query: { limit, search: search || undefined, cursor } });
}

export type TodoFeed = {
  phase: "loading" | "ready" | "error";
  error: string | null;
  items: TTodoListItem[];
  hasMore: boolean;
  paged: boolean;
  more: "idle" | "loading" | "error";
  moreError: string | null;
  loadMore(): void;
  /** Reloads the first page into what is held (after a reconnect, or to try again). */
  refresh(): void;
  retry(): void;
  /** A live or locally created todo: replaces a held one, and is added when it matches the search. */
  upsert(item: TTodoListItem): void;
  setStatus(id: string, status: TTodoStatus): void;
  remove(id: string): void;
};

export function useTodoFeed(projectId: string, search: string, limit = 50): TodoFeed {
  const key = `${projectId}\n${search}`;
  const [stored, dispatch] = useReducer(reducer, key, initial);
  const state = stored.key === key ? stored : initial(key);

  const first = useOperation("todo_list", { params: { projectId }, query: { limit, search: search || undefined } }, EVERY_ANSWER);
  // Each answer is folded in once, as it arrives. The first that this page asked for replaces what
  // is held (an answer cached from an earlier visit shows meanwhile); later ones (a refresh after a
  // reconnect) are merged, so older pages stay.
  const [cachedAtStart, setCachedAtStart] = useState({ key, data: first.data });
  const start = cachedAtStart.key === key ? cachedAtStart : { key, data: first.data };
  if (start !== cachedAtStart) setCachedAtStart(start);
  const [seen, setSeen] = useState<{ key: string; data: Page | undefined; fresh: boolean }>({ key, data: undefined, fresh: false });
  if (first.data && (seen.key !== key || seen.data !== first.data)) {
    const cached = first.data === start.data;
    const settled = seen.key === key && seen.fresh;
    setSeen({ key, data: first.data, fresh: settled || !cached });
    dispatch({ type: settled ? "merge" : "first", key, page: first.data });
  }
  const phase = state.phase === "ready" ? "ready" : first.error ? "error" : "loading";

  const busy = useRef(false);
  const { nextCursor } = state;
  const loadMore = useCallback(() => {
    if (busy.current || phase !== "ready" || nextCursor === null) return;
    busy.current = true;
    dispatch({ type: "more-start", key });
    fetchPage(projectId, search, limit, nextCursor)
      .then((page) => dispatch({ type: "more", key, page }))
      .catch((err: unknown) => dispatch({ type: "more-error", key, message: errorMessage(err) }))
      .finally(() => {
        busy.current = false;
      });
  }, [phase, nextCursor, key, projectId, search, limit]);

  const { mutate } = first;
  const refresh = useCallback(() => void mutate(), [mutate]);

  const upsert = useCallback((item: TTodoListItem) => dispatch({ type: "upsert", item, insert: matchesSearch(item, search) }), [search]);
  const setStatus = useCallback((id: string, status: TTodoStatus) => dispatch({ type: "status", id, status }), []);
  const remove = useCallback((id: string) => dispatch({ type: "remove", id }), []);

  const items = Object.values(state.byId).sort(byActivity);
  return {
    phase,
    error: phase === "error" && first.error ? errorMessage(first.error) : null,
    items,
    hasMore: state.nextCursor !== null,
    paged: state.paged,
    more: state.more,
    moreError: state.moreError,
    loadMore,
    refresh,
    retry: refresh,
    upsert,
    setStatus,
    remove,
  };
}
