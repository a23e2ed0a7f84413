"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { call } from "@/lib/api/client";
import { ZCreateTodoInput, type TTodo } from "@/lib/schemas/todos";
import type { TTodoGroup } from "@/lib/schemas/groups";
import { useForm } from "@/components/ui/form";
import { takeArrivalFocus } from "@/lib/ui/arrival-focus";
import { GroupOptions } from "./group-options";

/** Creates a todo: content, optional group, and whether the agent starts on it right away. */
export function NewTodoForm({ projectId, groups, onCreated }: { projectId: string; groups: TTodoGroup[]; onCreated(todo: TTodo): void }) {
  const id = useId();
  const [content, setContent] = useState("");
  const [groupSlug, setGroupSlug] = useState("");
  const [start, setStart] = useState(false);
  const { busy, alert, submit: send } = useForm({ labels: { content: "Todo", groupSlug: "Group" } });
  const field = useRef<HTMLTextAreaElement>(null);
  // Arriving from the project's creation (NewProjectForm): the keyboard goes on, here.
  useEffect(() => {
    if (takeArrivalFocus(`project:${projectId}`)) field.current?.focus();
  }, [projectId]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    const parsed = ZCreateTodoInput.safeParse({ content, groupSlug: groupSlug || undefined, startProcessing: start });
    await send(e, parsed, async (body) => {
      const todo = await call("project_createTodo", { params: { projectId }, body });
      setContent("");
      setStart(false);
      onCreated(todo);
    });
  }

  return (
    <form className="card new-todo" onSubmit={submit} noValidate aria-label="Add a todo">
      <label htmlFor={`${id}-content`}>New todo</label>
      <textarea
        ref={field}
        id={`${id}-content`}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        rows={2}
        placeholder="What should the agent work on?"
        aria-invalid={alert ? true : undefined}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) e.currentTarget.form?.requestSubmit();
        }}
      />
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-group`}>Group</label>
          <select id={`${id}-group`} value={groupSlug} onChange={(e) => setGroupSlug(e.target.value)}>
            <GroupOptions groups={groups} />
          </select>
        </div>
        <div className="field checkbox-field">
          <input id={`${id}-start`} type="checkbox" checked={start} onChange={(e) => setStart(e.target.checked)} />
          <label htmlFor={`${id}-start`}>Start the agent now</label>
        </div>
        <div className="field push-end">
          <button type="submit" disabled={busy}>
            {busy ? "Adding…" : "Add todo"}
          </button>
        </div>
      </div>
      <ErrorAlert message={alert} />
    </form>
  );
}
