"use client";

import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { toast } from "sonner";
import { ErrorAlert } from "@/components/ui/error-alert";
import { errorMessage } from "@/lib/ui/form-issues";
import { TODO_DRAG_TYPE } from "./todo-row";
import { call } from "@/lib/api/client";
import { RenameInput } from "@/components/ui/rename-input";
import { ZProjectGroupUpsertInput, type TTodoGroup } from "@/lib/schemas/groups";
import { useForm } from "@/components/ui/form";

/** A titled section of the todo list: one todo group (renameable inline), or the ungrouped todos. */
export function GroupSection({
  projectId,
  group,
  title,
  count,
  canWrite,
  onRenamed,
  onMoved,
  onReorder,
  children,
}: {
  projectId: string;
  group: TTodoGroup | null;
  /** null: no heading (the todos of a project that has no groups). */
  title: string | null;
  count?: number;
  canWrite: boolean;
  onRenamed?(group: TTodoGroup): void;
  /** A todo was dropped here and moved (its id). */
  onMoved?(todoId: string): void;
  /** Moves this group one place up (-1) or down (1) among the groups; absent where it cannot go. */
  onReorder?: { up?(): Promise<void>; down?(): Promise<void> };
  children: ReactNode;
}) {
  const [dropping, setDropping] = useState(false);
  const accepts = (types: readonly string[]) => canWrite && types.includes(TODO_DRAG_TYPE);
  async function drop(todoId: string) {
    try {
      await call("todo_update", { params: { todoId }, body: { groupSlug: group?.slug ?? null } });
      toast.success(group ? `Moved to ${group.name}` : "Moved out of its group");
      onMoved?.(todoId);
    } catch (err) {
      toast.error(`Could not move the todo: ${errorMessage(err)}`);
    }
  }
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(title ?? "");
  const { busy, alert, setAlert, submit } = useForm({ labels: { name: "Name" } });
  // A move in progress ignores more presses (the buttons stay enabled: a disabled one would drop the focus).
  const moving = useRef(false);
  const upButton = useRef<HTMLButtonElement>(null);
  const downButton = useRef<HTMLButtonElement>(null);
  async function reorder(move: () => Promise<void>, button: HTMLButtonElement | null) {
    if (moving.current) return;
    moving.current = true;
    try {
      await move();
      // The section moves in the page once the new order renders, which can take the focus: then
      // the keyboard goes back to the button pressed, or to the other one at the first or last place.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const other = button === upButton.current ? downButton.current : upButton.current;
      (button?.disabled ? other : button)?.focus();
    } catch (err) {
      toast.error(`Could not move the group: ${errorMessage(err)}`);
    } finally {
      moving.current = false;
    }
  }

  async function rename(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!group) return;
    await submit(e, ZProjectGroupUpsertInput.safeParse({ name }), async (data) => {
      const saved = await call("project_upsertGroup", { params: { projectId, slug: group.slug }, body: { name: data.name } });
      onRenamed?.(saved);
      setEditing(false);
    });
  }

  const head =
    title === null ? null : editing ? (
      <form className="inline-fields" onSubmit={rename} noValidate aria-label={`Rename group ${title}`}>
        <label htmlFor={`${id}-name`} className="visually-hidden">
          Group name
        </label>
        <RenameInput id={`${id}-name`} value={name} onChange={setName} onCancel={() => setEditing(false)} invalid={Boolean(alert)} />
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" className="secondary" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </form>
    ) : (
      <>
        <h3 id={`${id}-title`} className="group-title">
          {title}
          {count !== undefined ? <span className="count"> · {count}</span> : null}
        </h3>
        {group && canWrite ? (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setName(title);
              setAlert(null);
              setEditing(true);
            }}
            aria-label={`Rename group ${title}`}
          >
            Rename
          </button>
        ) : null}
        {group && canWrite && onReorder ? (
          <span className="group-order">
            <button ref={upButton} type="button" className="secondary" onClick={() => onReorder.up && void reorder(onReorder.up, upButton.current)} disabled={!onReorder.up} aria-label={`Move group ${title} up`} title="Move up">
              ↑
            </button>
            <button ref={downButton} type="button" className="secondary" onClick={() => onReorder.down && void reorder(onReorder.down, downButton.current)} disabled={!onReorder.down} aria-label={`Move group ${title} down`} title="Move down">
              ↓
            </button>
          </span>
        ) : null}
      </>
    );

  return (
    <section
      className={`group${dropping ? " drop-target" : ""}`}
      aria-labelledby={title === null ? undefined : `${id}-title`}
      data-testid="todo-group"
      data-group-slug={group?.slug ?? ""}
      onDragOver={(e) => {
        if (!accepts(e.dataTransfer.types)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
        setDropping(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={(e) => {
        setDropping(false);
        const todoId = e.dataTransfer.getData(TODO_DRAG_TYPE);
        if (!accepts(e.dataTransfer.types) || !todoId) return;
        e.preventDefault();
        void drop(todoId);
      }}
    >
      {head ? <div className="group-head">{head}</div> : null}
      {/* While the rename form shows, the section keeps its name. */}
      {editing && title !== null ? (
        <h3 id={`${id}-title`} className="visually-hidden">
          {title}
        </h3>
      ) : null}
      <ErrorAlert message={alert} />
      {children}
    </section>
  );
}
