"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import { useLiveOperations, useOperation } from "@/lib/api/swr";
import type { RealtimeEvent } from "@/lib/realtime-client";
import type { TTodoWorkflow } from "@/lib/schemas/todos";
import { plural } from "@/lib/ui/format";
import { LoadError, Loading } from "@/components/ui/load-state";
import { useForm } from "@/components/ui/form";
import { ErrorAlert } from "@/components/ui/error-alert";
import styles from "./todo.module.css";

/**
 * The events after which the workflow may read differently: `todo.workflow` (the context summary
 * written or marked used), a status change, and a reply opened or finished (a turn's start and end).
 * The chat has joined the todo's room, so they reach this page.
 */
const WORKFLOW_EVENTS = new Set(["todo.workflow", "todo.status", "message.created", "message.updated"]);

export function workflowAffected(todoId: string) {
  return (e: RealtimeEvent) => (e.todoId === todoId && WORKFLOW_EVENTS.has(e.type) ? (["todo_getWorkflow"] as const) : []);
}

const STATE_TEXT: Record<string, string> = {
  idle: "Not working on it now",
  running: "Working on a reply",
  waiting: "Waiting for the sub-todos or the shell command it started",
  error: "Stopped with an error",
};

/**
 * The summary the agent keeps of the older messages. A writer can correct it (todo_updateWorkflow):
 * an edited summary is read on the next turn (not used yet); a forgotten one makes the agent read
 * the whole conversation again, summarising it anew when it is too long for the model.
 */
function Summary({ todoId, summary, canWrite }: { todoId: string; summary: string; canWrite: boolean }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(summary);
  const { busy, alert, setAlert, run } = useForm();
  const save = (contextSummary: string | null) => run(() => call("todo_updateWorkflow", { params: { todoId }, body: { contextSummary, contextSummaryUsed: false } }).then(() => undefined));

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const next = text.trim();
    if (!next) return setAlert("The summary needs some text. To drop it, Discard this edit and choose Forget summary.");
    if (next === summary) return setEditing(false);
    if (await save(next)) setEditing(false);
  }

  if (!editing)
    return (
      <>
        {/* Scrolls when long: focusable, so a keyboard can scroll it. */}
        <blockquote className={styles.summary} data-testid="workflow-summary" tabIndex={0} aria-label="Summary of the older messages">
          {summary}
        </blockquote>
        {canWrite ? (
          <div className={styles.summaryActions}>
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => {
                setText(summary);
                setAlert(null);
                setEditing(true);
              }}
            >
              Edit summary
            </button>
            <button type="button" className="secondary danger-outline" disabled={busy} aria-busy={busy} onClick={() => void save(null)} title="The agent reads the whole conversation again on its next turn">
              Forget summary
            </button>
            <ErrorAlert message={alert} />
          </div>
        ) : null}
      </>
    );
  return (
    <form className={styles.summaryForm} onSubmit={(e) => void submit(e)} aria-label="Edit the summary" noValidate>
      <label htmlFor={id}>Summary of the older messages</label>
      <textarea
        id={id}
        value={text}
        rows={5}
        autoFocus
        aria-invalid={alert ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setAlert(null);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") setEditing(false);
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) e.currentTarget.form?.requestSubmit();
        }}
      />
      <div className={styles.summaryActions}>
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save summary"}
        </button>
        <button type="button" className="secondary" onClick={() => setEditing(false)}>
          Discard
        </button>
      </div>
      <ErrorAlert message={alert} />
    </form>
  );
}

function WorkflowFacts({ workflow, canWrite }: { workflow: TTodoWorkflow; canWrite: boolean }) {
  const summary = workflow.contextSummary;
  return (
    <dl className={styles.facts} data-testid="workflow">
      <dt>Agent</dt>
      <dd data-testid="workflow-state">{STATE_TEXT[workflow.state] ?? workflow.state}</dd>
      <dt>Turns</dt>
      <dd data-testid="workflow-turn">{workflow.turn === 0 ? "The agent has not started yet" : `${plural(workflow.turn, "turn")} so far`}</dd>
      <dt>What it remembers</dt>
      {summary ? (
        <dd>
          <p className={styles.factNote} data-testid="workflow-summary-status">
            {workflow.contextSummaryUsed
              ? "Used: the agent reads this summary of the older messages in their place."
              : "Not used yet: the agent reads this summary of the older messages on its next turn."}
          </p>
          {/* Keyed by the text: a summary changed elsewhere (the agent, another tab) ends an edit of the old one. */}
          <Summary key={summary} todoId={workflow.todoId} summary={summary} canWrite={canWrite} />
        </dd>
      ) : (
        <dd data-testid="workflow-summary-status">The whole conversation: no summary stands in for older messages.</dd>
      )}
      <dt>Across todos</dt>
      <dd>
        The notes it keeps for every todo are under <Link href="/settings/memory">Memory</Link>.
      </dd>
    </dl>
  );
}

/**
 * The todo's "Details" disclosure: the agent's workflow state in words (todo_getWorkflow), read
 * when opened and then kept live. Anyone who can read the todo can read it; a writer can also edit
 * or forget the summary.
 */
export function WorkflowDetails({ todoId, canWrite }: { todoId: string; canWrite: boolean }) {
  const [open, setOpen] = useState(false);
  const workflow = useOperation("todo_getWorkflow", open ? { params: { todoId } } : null);
  useLiveOperations(workflowAffected(todoId), open ? ["todo_getWorkflow"] : []);
  return (
    <details className={styles.details} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="todo-details">
      {/* On a phone "Details", so that it and "Find in this chat" share a line. */}
      <summary>
        Details<span className={styles.wideOnly}>: what the agent remembers</span>
      </summary>
      {!open ? null : workflow.data ? (
        <WorkflowFacts workflow={workflow.data} canWrite={canWrite} />
      ) : workflow.error ? (
        <LoadError what="the details" message={workflow.error.message} onRetry={() => void workflow.mutate()} inline />
      ) : (
        <Loading label="Loading the details…" lines={2} inline />
      )}
    </details>
  );
}
