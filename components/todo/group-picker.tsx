"use client";

import { useState } from "react";
import { toast } from "sonner";
import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { GroupOptions } from "@/components/projects/group-options";
import { errorMessage } from "@/lib/ui/form-issues";
import { byPosition } from "@/lib/ui/group-order";
import styles from "./todo.module.css";

/**
 * The todo's group on its chat page: a picker that moves it (todo_update) for a writer, the
 * group's name for a reader. Nothing when the project has no groups (and the todo none). The list
 * is the project page's (one cache entry); it is read again when the picker takes focus, so a
 * group added elsewhere since is there to pick.
 */
export function TodoGroupPicker({ todoId, projectId, groupSlug, canWrite, onMoved }: { todoId: string; projectId: string; groupSlug: string | null; canWrite: boolean; onMoved: () => void }) {
  const read = useOperation("project_groups", { params: { projectId } });
  const [busy, setBusy] = useState(false);
  const groups = [...(read.data ?? [])].sort(byPosition);
  const current = groups.find((g) => g.slug === groupSlug);
  if (!read.data || (groups.length === 0 && groupSlug === null)) return null;
  const name = current?.name ?? groupSlug;

  if (!canWrite) {
    return name === null ? null : (
      <span className={`muted ${styles.group}`} data-testid="todo-group">
        Group: {name}
      </span>
    );
  }

  async function move(slug: string | null) {
    setBusy(true);
    try {
      await call("todo_update", { params: { todoId }, body: { groupSlug: slug } });
      toast.success(slug ? `Moved to ${groups.find((g) => g.slug === slug)?.name ?? slug}` : "Moved out of its group");
    } catch (err) {
      toast.error(`Could not move the todo: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
      onMoved();
    }
  }

  return (
    <label className={`muted ${styles.group}`}>
      Group
      <select
        value={groupSlug ?? ""}
        disabled={busy}
        aria-busy={busy}
        onFocus={() => void read.mutate()}
        onChange={(e) => void move(e.target.value || null)}
      >
        <GroupOptions groups={groups} />
        {/* A group this list does not know yet (added elsewhere): shown until the list is read again. */}
        {groupSlug !== null && !current ? <option value={groupSlug}>{groupSlug}</option> : null}
      </select>
    </label>
  );
}
