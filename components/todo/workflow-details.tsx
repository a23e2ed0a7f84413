"use client";

import Link from "next/link";
import { useState } from "react";
import { useLiveOperations, useOperation } from "@/lib/api/swr";
import type { RealtimeEvent } from "@/lib/realtime-client";
import type { TTodoWorkflow } from "@/lib/schemas/todos";
import { plural } from "@/lib/ui/format";
import { LoadError, Loading } from "@/components/ui/load-state";
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

function WorkflowFacts({ workflow }: { workflow: TTodoWorkflow }) {
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
          {/* Scrolls when long: focusable, so a keyboard can scroll it. */}
          <blockquote className={styles.summary} data-testid="workflow-summary" tabIndex={0} aria-label="Summary of the older messages">
            {summary}
          </blockquote>
        </dd>
      ) : (
        <dd data-testid="workflow-summary-status">The whole conversation: it has not needed a summary.</dd>
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
 * when opened and then kept live. Read-only: anyone who can read the todo can read it.
 */
export function WorkflowDetails({ todoId }: { todoId: string }) {
  const [open, setOpen] = useState(false);
  const workflow = useOperation("todo_getWorkflow", open ? { params: { todoId } } : null);
  useLiveOperations(workflowAffected(todoId), open ? ["todo_getWorkflow"] : []);
  return (
    <details className={styles.details} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="todo-details">
      <summary>Details: what the agent remembers</summary>
      {!open ? null : workflow.data ? (
        <WorkflowFacts workflow={workflow.data} />
      ) : workflow.error ? (
        <LoadError what="the details" message={workflow.error.message} onRetry={() => void workflow.mutate()} inline />
      ) : (
        <Loading label="Loading the details…" lines={2} inline />
      )}
    </details>
  );
}
