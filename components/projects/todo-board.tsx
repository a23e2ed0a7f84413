"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { TTodoGroup } from "@/lib/schemas/groups";
import type { TTodoListItem } from "@/lib/schemas/todos";
import { Loading } from "@/components/ui/load-state";
import { LoadMoreButton } from "@/components/ui/load-more";
import { GroupSection } from "./group-section";
import { TodoRow } from "./todo-row";
import type { TodoFeed } from "./use-todo-feed";
import { BulkBar, type TodoSelection } from "./bulk-bar";
import { call } from "@/lib/api/client";
import { groupMoves } from "@/lib/ui/group-order";

export type GroupsState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "ready"; list: TTodoGroup[] };

/** The search box: typing updates the list after a short pause (todo_list's `search`). */
export function SearchBox({ onSearch }: { onSearch(value: string): void }) {
  const id = useId();
  const [value, setValue] = useState("");
  const latest = useRef(onSearch);
  useEffect(() => {
    latest.current = onSearch;
  });
  useEffect(() => {
    const t = setTimeout(() => latest.current(value.trim().slice(0, 200)), 300);
    return () => clearTimeout(t);
  }, [value]);
  return (
    <div className="search" role="search">
      <label htmlFor={id}>Search todos</label>
      <input id={id} type="search" value={value} onChange={(e) => setValue(e.target.value)} placeholder="Content or status, e.g. running" autoComplete="off" />
    </div>
  );
}

type ListSelect = { selected: ReadonlySet<string>; toggle(id: string, range: boolean): void };

function TodoList({ items, canWrite, groups, onChanged, onRemoved, select }: { items: TTodoListItem[]; canWrite: boolean; groups?: readonly TTodoGroup[]; onChanged(id: string): void; onRemoved?(id: string): void; select?: ListSelect }) {
  return (
    <ul className="plain todo-list">
      {items.map((t) => (
        <TodoRow
          key={t.id}
          todo={t}
          canWrite={canWrite}
          groups={groups}
          onChanged={onChanged}
          onRemoved={onRemoved}
          select={select && { checked: select.selected.has(t.id), onToggle: (range) => select.toggle(t.id, range) }}
        />
      ))}
    </ul>
  );
}

/** Loads older pages when the end of the list scrolls into view; the button does the same for keyboard users. */
function LoadMore({ feed }: { feed: TodoFeed }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasMore, loadMore, more, items } = feed;
  const count = items.length;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || more !== "idle" || typeof IntersectionObserver === "undefined") return;
    // A new observer reports the current state at once, so a short page that leaves the end in view keeps loading.
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), { rootMargin: "200px 0px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, more, loadMore, count]);
  return (
    <div className="list-end" ref={sentinel} data-testid="todo-list-end">
      {feed.more === "error" ? (
        <p className="error" role="alert">
          Could not load more todos: {feed.moreError}
        </p>
      ) : null}
      <LoadMoreButton hasMore={hasMore} loading={more === "loading"} onMore={loadMore} label="Load more" loadingLabel="Loading more…" endLabel={feed.paged ? "All todos loaded." : null} />
    </div>
  );
}

export function TodoBoard({
  projectId,
  canWrite,
  groups,
  feed,
  proposed,
  search,
  selection,
  onChanged,
  onGroupChanged,
  onRemoved,
}: {
  projectId: string;
  canWrite: boolean;
  groups: GroupsState;
  feed: TodoFeed;
  /** The project's proposed todos (their own section): a group's count leaves them out. */
  proposed?: TodoFeed;
  search: string;
  /** Todos chosen for one change to all (writers only). */
  selection?: TodoSelection;
  onChanged(id: string): void;
  onGroupChanged(group: TTodoGroup): void;
  onRemoved?(id: string): void;
}) {
  // Wait for the groups too, so todos do not jump from "ungrouped" into their groups.
  if (feed.phase === "loading" || groups.phase === "loading") {
    return <Loading label="Loading todos…" inline lines={4} />;
  }
  if (feed.phase === "error") {
    return (
      <div className="card">
        <p className="error" role="alert">
          Could not load todos: {feed.error}
        </p>
        <button type="button" className="secondary" onClick={feed.retry}>
          Try again
        </button>
      </div>
    );
  }

  // Proposed todos have their own section; a search shows every match.
  const items = search ? feed.items : feed.items.filter((t) => t.status !== "PROPOSED");
  const groupList = groups.phase === "ready" ? groups.list : [];
  const known = new Set(groupList.map((g) => g.slug));
  const ungrouped = items.filter((t) => !t.groupSlug || !known.has(t.groupSlug));
  const inGroup = (slug: string) => items.filter((t) => t.groupSlug === slug);
  // A group's todos as its heading counts them: the ones listed under it. The server's count also
  // has the group's proposed todos, which show in their own section: taken off it while the list
  // is not all loaded (once it is, the rows are the count).
  const countOf = (g: TTodoGroup, rows: readonly unknown[]) => {
    if (!feed.hasMore) return rows.length;
    if (!proposed || proposed.hasMore) return g.todoCount;
    return g.todoCount - proposed.items.filter((t) => t.status === "PROPOSED" && t.groupSlug === g.slug).length;
  };

  // A group moved a place up or down: the groups whose position changes are written, in turn.
  const reorder = (index: number, step: -1 | 1) => async () => {
    for (const { group, position } of groupMoves(groupList, index, step)) {
      onGroupChanged(await call("project_upsertGroup", { params: { projectId, slug: group.slug }, body: { name: group.name, position } }));
    }
  };
  const canReorder = canWrite && !search && groupList.length > 1;

  // The rows in the order they show, for Select all and Shift ranges.
  const order = [...ungrouped, ...groupList.flatMap((g) => inGroup(g.slug))];
  const select: ListSelect | undefined = selection?.selecting
    ? {
        selected: selection.selected,
        toggle: (id, range) =>
          selection.toggle(
            id,
            range,
            order.map((t) => t.id),
          ),
      }
    : undefined;
  const bar =
    selection?.selecting && onRemoved ? <BulkBar selection={selection} visible={order} groups={groupList} onChanged={onChanged} onRemoved={onRemoved} /> : null;

  if (search && items.length === 0 && !feed.hasMore) {
    return (
      <>
        {bar}
        <p className="empty" role="status">
          No todos match “{search}”.
        </p>
      </>
    );
  }

  return (
    <div className="board">
      {bar}
      {groups.phase === "error" ? (
        <p className="error" role="alert">
          Could not load groups: {groups.message}
        </p>
      ) : null}
      {!search && items.length === 0 && !feed.hasMore ? <p className="empty">No todos yet.{canWrite ? " Add the first one above." : ""}</p> : null}

      {ungrouped.length > 0 ? (
        // Its count is known once every todo is loaded (a group's comes from the server).
        <GroupSection projectId={projectId} group={null} title={groupList.length > 0 ? "Ungrouped" : null} count={search || feed.hasMore ? undefined : ungrouped.length} canWrite={canWrite} onMoved={onChanged}>
          <TodoList items={ungrouped} canWrite={canWrite} groups={groupList} onChanged={onChanged} onRemoved={onRemoved} select={select} />
        </GroupSection>
      ) : null}

      {groupList.map((g, index) => {
        const rows = inGroup(g.slug);
        if (search && rows.length === 0) return null;
        const count = countOf(g, rows);
        return (
          <GroupSection
            key={g.id}
            projectId={projectId}
            group={g}
            title={g.name}
            count={search ? undefined : count}
            canWrite={canWrite}
            onRenamed={onGroupChanged}
            onMoved={onChanged}
            onReorder={canReorder ? { up: index > 0 ? reorder(index, -1) : undefined, down: index < groupList.length - 1 ? reorder(index, 1) : undefined } : undefined}
          >
            {rows.length > 0 ? (
              <TodoList items={rows} canWrite={canWrite} groups={groupList} onChanged={onChanged} onRemoved={onRemoved} select={select} />
            ) : count <= 0 ? (
              <p className="muted group-empty">No todos in this group.</p>
            ) : (
              <p className="muted group-empty">Its todos are further down the list; load more to see them.</p>
            )}
          </GroupSection>
        );
      })}

      <LoadMore feed={feed} />
    </div>
  );
}

/** Analyzer suggestions waiting for the user: accept starts them, dismiss cancels them. */
export function ProposedSection({ feed, canWrite, onChanged }: { feed: TodoFeed; canWrite: boolean; onChanged(id: string): void }) {
  const proposed = feed.items.filter((t) => t.status === "PROPOSED");
  if (feed.phase === "error") {
    return (
      <p className="error" role="alert">
        Could not load proposed todos: {feed.error}
      </p>
    );
  }
  if (proposed.length === 0) return null;
  return (
    <section className="card proposed" aria-labelledby="proposed-heading" data-testid="proposed-todos">
      <h2 id="proposed-heading">Proposed todos</h2>
      <p className="muted">Suggestions waiting for you: accept to start the agent on one, or dismiss it.</p>
      <TodoList items={proposed} canWrite={canWrite} onChanged={onChanged} />
      {feed.hasMore ? (
        <button type="button" className="secondary" onClick={feed.loadMore} disabled={feed.more === "loading"}>
          More proposed todos
        </button>
      ) : null}
    </section>
  );
}
