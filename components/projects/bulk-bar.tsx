"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { call } from "@/lib/api/client";
import type { TTodoGroup } from "@/lib/schemas/groups";
import { ZTodoStatusUpdateInput, type TTodoListItem } from "@/lib/schemas/todos";
import { canMarkDone } from "@/lib/todo-lifecycle";
import { BULK_VERB, bulkSummary, countTodos, runBulk, type BulkAction, type BulkProgress } from "@/lib/ui/bulk";
import { errorMessage } from "@/lib/ui/form-issues";
import { startWaiting } from "@/lib/ui/agent-start";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Outcome, type OutcomeState } from "@/components/ui/error-alert";
import { GroupOptions } from "./group-options";

/** Todos chosen in the project's list for one change to all of them (the rows' check boxes). */
export type TodoSelection = {
  selecting: boolean;
  selected: ReadonlySet<string>;
  /** Turns selection on (with `id` chosen) or off (clearing it). */
  setSelecting(on: boolean, id?: string): void;
  /** Flips one todo; with `range`, every todo of `order` from the last one flipped takes its new state. */
  toggle(id: string, range: boolean, order: readonly string[]): void;
  set(ids: Iterable<string>, on: boolean): void;
};

export function useTodoSelection(): TodoSelection {
  const [selecting, setOn] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);
  const setSelecting = useCallback((on: boolean, id?: string) => {
    setOn(on);
    setSelected(new Set(on && id ? [id] : []));
    anchor.current = on && id ? id : null;
  }, []);
  const set = useCallback((ids: Iterable<string>, on: boolean) => {
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);
  const toggle = useCallback(
    (id: string, range: boolean, order: readonly string[]) => {
      // Read now: the updater below runs later, after the anchor has moved to `id`.
      const from = range && anchor.current ? order.indexOf(anchor.current) : -1;
      setSelected((prev) => {
        const on = !prev.has(id);
        const to = order.indexOf(id);
        const ids = from >= 0 && to >= 0 ? order.slice(Math.min(from, to), Math.max(from, to) + 1) : [id];
        const next = new Set(prev);
        for (const x of ids) {
          if (on) next.add(x);
          else next.delete(x);
        }
        return next;
      });
      anchor.current = id;
    },
    [],
  );
  return { selecting, selected, setSelecting, toggle, set };
}

/**
 * The bar over a project's list while todos are being selected: how many are, Select all / Clear,
 * and Start, Mark done, Move to and Delete for all of them at once, with progress, Stop, and a
 * summary that names what failed (those stay selected). Leaving the page stops what is not sent.
 */
export function BulkBar({
  selection,
  visible,
  groups,
  onChanged,
  onRemoved,
}: {
  selection: TodoSelection;
  /** The todos listed now, in their order (only these can be selected). */
  visible: readonly TTodoListItem[];
  groups: readonly TTodoGroup[];
  onChanged(id: string): void;
  onRemoved(id: string): void;
}) {
  const chosen = visible.filter((t) => selection.selected.has(t.id));
  // Created without the agent: their waiting first message starts a turn.
  const startable = chosen.filter((t) => t.status === "TODO");
  const completable = chosen.filter((t) => canMarkDone(t.status));
  const [progress, setProgress] = useState<(BulkProgress & { action: BulkAction }) | null>(null);
  const [outcome, setOutcome] = useState<OutcomeState>(null);
  const [confirming, setConfirming] = useState(false);
  const [moveTo, setMoveTo] = useState("");
  const stop = useRef<AbortController | null>(null);
  const running = progress !== null;
  const { setSelecting, set } = selection;

  useEffect(() => () => stop.current?.abort(), []);

  // Escape leaves selection (not while a change runs, nor from the confirmation, which has its own).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || running || confirming || e.defaultPrevented) return;
      const t = e.target as HTMLElement | null;
      if (t?.closest("dialog, details[open], select")) return;
      setSelecting(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [running, confirming, setSelecting]);

  async function run(action: BulkAction, items: TTodoListItem[], fn: (t: TTodoListItem) => Promise<unknown>, where?: string) {
    const abort = new AbortController();
    stop.current = abort;
    setOutcome(null);
    setProgress({ action, finished: 0, total: items.length });
    const out = await runBulk(items, fn, errorMessage, { signal: abort.signal, onProgress: (p) => setProgress({ action, ...p }) });
    for (const t of out.done) (action === "delete" ? onRemoved : onChanged)(t.id);
    set(
      out.done.map((t) => t.id),
      false,
    );
    stop.current = null;
    setProgress(null);
    setOutcome(bulkSummary(action, out, where));
  }

  const start = () => run("start", startable, (t) => startWaiting(t.id));
  const complete = () =>
    run("complete", completable, (t) => call("todo_updateStatus", { params: { todoId: t.id }, body: ZTodoStatusUpdateInput.parse({ action: "complete" }) }));
  const move = (slug: string) => {
    const group = groups.find((g) => g.slug === slug);
    const items = chosen.filter((t) => (t.groupSlug ?? "") !== slug);
    if (items.length === 0) return setOutcome({ ok: true, text: group ? `Already in ${group.name}.` : "Already in no group." });
    return run("move", items, (t) => call("todo_update", { params: { todoId: t.id }, body: { groupSlug: slug || null } }), group ? `to ${group.name}` : "out of their groups");
  };
  const remove = () => run("delete", chosen, (t) => call("todo_delete", { params: { todoId: t.id }, body: { todoId: t.id } }));

  const allSelected = visible.length > 0 && chosen.length === visible.length;
  return (
    <div className="bulk-bar" role="region" aria-label="Selected todos" data-testid="bulk-bar">
      <div className="bulk-row">
        <span className="bulk-count" role="status" aria-live="polite">
          {chosen.length === 0 ? "No todo selected" : `${countTodos(chosen.length)} selected`}
        </span>
        <button type="button" className="link-button" onClick={() => set(allSelected ? chosen.map((t) => t.id) : visible.map((t) => t.id), !allSelected)} disabled={running || visible.length === 0}>
          {allSelected ? "Clear" : `Select all ${visible.length}`}
        </button>
        <span className="bulk-actions">
          {startable.length > 0 ? (
            <button type="button" className="secondary" onClick={() => void start()} disabled={running} title="Start the agent on the selected todos that were created without it">
              ▶ Start{startable.length < chosen.length ? ` (${startable.length})` : ""}
            </button>
          ) : null}
          <button type="button" onClick={() => void complete()} disabled={running || completable.length === 0} title={completable.length < chosen.length ? "Done and cancelled todos stay as they are" : undefined}>
            Mark done{completable.length && completable.length < chosen.length ? ` (${completable.length})` : ""}
          </button>
          {groups.length > 0 ? (
            <label className="bulk-move">
              <span className="visually-hidden">Move the selected todos to</span>
              <select
                value={moveTo}
                disabled={running || chosen.length === 0}
                onChange={(e) => {
                  const slug = e.target.value;
                  setMoveTo("");
                  if (slug !== "") void move(slug === "-" ? "" : slug);
                }}
              >
                <option value="">Move to…</option>
                <GroupOptions groups={groups} noneValue="-" />
              </select>
            </label>
          ) : null}
          <button type="button" className="secondary danger-outline" onClick={() => setConfirming(true)} disabled={running || chosen.length === 0}>
            Delete…
          </button>
          <button type="button" className="secondary" onClick={() => setSelecting(false)} disabled={running}>
            Done
          </button>
        </span>
      </div>
      {progress ? (
        <div className="bulk-progress">
          <progress max={progress.total} value={progress.finished} aria-label={`${BULK_VERB[progress.action].doing} the selected todos`} />
          <span role="status">
            {progress.waiting
              ? `Rate limited: going on in ${progress.waiting} s (${progress.finished} of ${progress.total} done)`
              : `${BULK_VERB[progress.action].doing} ${Math.min(progress.finished + 1, progress.total)} of ${progress.total}…`}
          </span>
          <button type="button" className="secondary" onClick={() => stop.current?.abort()}>
            Stop
          </button>
        </div>
      ) : null}
      <Outcome out={outcome} />
      <ConfirmDialog
        open={confirming}
        title={`Delete ${countTodos(chosen.length)}?`}
        description={`${chosen.length === 1 ? "It" : "They"} and all ${chosen.length === 1 ? "its" : "their"} messages will be deleted for good.`}
        confirmLabel={`Delete ${countTodos(chosen.length)}`}
        busyLabel="Deleting…"
        onConfirm={async () => void remove()}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
