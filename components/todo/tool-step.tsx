"use client";

import Link from "next/link";
import type { TBlock } from "@/lib/schemas/todos";
import { useCallback, useMemo } from "react";
import { refreshOperation, useOperation } from "@/lib/api/swr";
import { useRealtime, type RealtimeEvent } from "@/lib/realtime-client";
import { formatDateTime, todoHref } from "@/lib/ui/format";
import { statusIconStyle, statusLabel } from "@/lib/ui/status";
import styles from "./todo.module.css";

// A step the agent took (a `tool_call` block): one readable line of what it did, with the call's
// input and result in a collapsible detail; sub-todos it started show as live child cards.

type StepContent = { tool?: string; state?: "running" | "done" | "error"; input?: unknown; output?: unknown };

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the step did, in words. */
export function describeStep(content: StepContent): string {
  const input = asRecord(content.input);
  const output = asRecord(content.output);
  const failed = content.state === "error";
  switch (content.tool) {
    case "checklist": {
      const added = Array.isArray(input.add) ? input.add.length : 0;
      const updated = Array.isArray(input.update) ? input.update.length : 0;
      const what = [added ? `added ${count(added, "checklist item")}` : "", updated ? `updated ${count(updated, "checklist item")}` : ""].filter(Boolean).join(" and ") || "changed the checklist";
      return failed ? `Could not change the checklist` : content.state === "running" ? `Changing the checklist…` : what[0]!.toUpperCase() + what.slice(1);
    }
    case "schedule_followup": {
      const at = typeof output.scheduledAt === "string" ? formatDateTime(Date.parse(output.scheduledAt)) : null;
      return failed ? "Could not schedule a follow-up" : at ? `Scheduled a follow-up for ${at}` : "Scheduling a follow-up…";
    }
    case "spawn_subtodos": {
      const n = Array.isArray(input.todos) ? input.todos.length : 0;
      return failed ? "Could not start sub-todos" : content.state === "running" ? `Starting ${count(n, "sub-todo")}…` : `Started ${count(n, "sub-todo")}`;
    }
    case "remember": {
      const scope = input.scope === "personal" ? "a personal note" : "a project note";
      return failed ? "Could not keep a note" : content.state === "running" ? "Keeping a note…" : `Kept ${scope}`;
    }
    case "recall": {
      const n = Array.isArray(output.notes) ? output.notes.length : 0;
      return failed ? "Could not look through the notes" : content.state === "running" ? "Looking through the notes…" : n ? `Recalled ${count(n, "note")}` : "Found no related note";
    }
    case "shell": {
      const state = typeof output.state === "string" ? output.state : undefined;
      if (failed) return "Could not propose a shell command";
      if (content.state === "running") return "Proposing a shell command…";
      if (state === "done") return typeof output.exitCode === "number" ? `Ran a shell command (exit code ${output.exitCode})` : "Ran a shell command";
      if (state === "denied") return "Proposed a shell command (denied)";
      if (state === "failed" || state === "cancelled") return `Proposed a shell command (${state === "failed" ? "it could not run" : "cancelled"})`;
      return "Proposed a shell command, waiting for approval";
    }
    case "show": {
      const name = typeof input.card === "string" ? `“${input.card}”` : null;
      if (failed) return `Could not show ${name ? `the card ${name}` : "a card"}`;
      if (content.state === "running") return "Showing data…";
      if (name && output.defined === "created") return `Made the card ${name} and showed data with it`;
      if (name && output.defined === "replaced") return `Changed the card ${name} and showed data with it`;
      return `Showed data with ${name ? `the card ${name}` : "a card"}`;
    }
    default:
      return `${failed ? "Failed: " : ""}${content.tool ?? "tool"}${content.state === "running" ? "…" : ""}`;
  }
}

export function ToolStep({ block, projectId }: { block: TBlock; projectId?: string }) {
  const content = asRecord(block.content) as StepContent;
  const error = content.state === "error" ? asRecord(content.output).error : undefined;
  return (
    <div className={styles.toolStep} data-testid="tool-step" data-tool={content.tool} data-state={content.state}>
      <details>
        <summary>
          <span aria-hidden="true" className={styles.toolIcon}>
            {content.state === "error" ? "✗" : content.state === "running" ? "…" : "✓"}
          </span>{" "}
          <span data-testid="tool-step-summary">{describeStep(content)}</span>
        </summary>
        {typeof error === "string" ? (
          <p className="error" style={{ margin: "0.3rem 0" }}>
            {error}
          </p>
        ) : null}
        <p className="muted" style={{ margin: "0.3rem 0 0.1rem", fontSize: "0.8rem" }}>
          {content.tool} — input
        </p>
        <pre className={styles.blockJson}>{JSON.stringify(content.input ?? null, null, 2)}</pre>
        {content.state === "done" ? (
          <>
            <p className="muted" style={{ margin: "0.3rem 0 0.1rem", fontSize: "0.8rem" }}>
              result
            </p>
            <pre className={styles.blockJson}>{JSON.stringify(content.output ?? null, null, 2)}</pre>
          </>
        ) : null}
      </details>
      <SubTodos block={block} projectId={projectId} />
    </div>
  );
}

/**
 * The todos linked to a block, as live cards. Not on the public page (no `projectId`): a public
 * block carries no links (PublicBlock has no subTodoIds).
 */
export function SubTodos({ block, projectId }: { block: TBlock; projectId?: string }) {
  if (block.subTodoIds.length === 0 || !projectId) return null;
  return (
    <ul className={styles.childCards} aria-label="Sub-todos">
      {block.subTodoIds.map((id) => (
        <SubTodoCard key={id} todoId={id} projectId={projectId} />
      ))}
    </ul>
  );
}

/** Events of a sub-todo that change what its card shows (not `message.delta`: the card shows the stored reply). */
const CARD_EVENTS: ReadonlySet<string> = new Set(["todo.status", "todo.updated", "message.created", "message.updated"]);

/**
 * A sub-todo's live card: its task, status and latest reply. The card subscribes to the sub-todo's
 * room and reads it again on each event that changes it (coalesced: at most one read in flight and
 * one queued), and after each (re)subscription, since events may have been missed while offline.
 */
export function SubTodoCard({ todoId, projectId }: { todoId: string; projectId?: string }) {
  const input = useMemo(() => ({ params: { todoId }, query: { messageLimit: 1 } }) as const, [todoId]);
  const { data, error } = useOperation("todo_get", input);
  const refresh = useCallback(() => void refreshOperation("todo_get", input).catch(() => undefined), [input]);
  const onEvent = useCallback((event: RealtimeEvent) => {
    if (event.todoId === todoId && CARD_EVENTS.has(event.type)) refresh();
  }, [todoId, refresh]);
  useRealtime({ kind: "todo", id: todoId }, onEvent, refresh);
  if (error) {
    return (
      <li className={styles.childCard} data-testid="subtodo-card">
        <span className="muted">Sub-todo {todoId}: {error.status === 404 ? "not found (deleted?)" : error.message}</span>
      </li>
    );
  }
  if (!data) {
    return (
      <li className={styles.childCard} data-testid="subtodo-card" aria-busy="true">
        <span className="muted">Loading sub-todo…</span>
      </li>
    );
  }
  const reply = data.messages.find((m) => m.role === "assistant");
  // A linked todo may be in another project: its own project is in its link.
  const href = projectId ? todoHref(data.projectId, todoId) : null;
  return (
    <li className={styles.childCard} data-testid="subtodo-card" data-status={data.status}>
      <div className={styles.childHead}>
        {href ? <Link href={href}>{data.content.length > 80 ? `${data.content.slice(0, 79)}…` : data.content}</Link> : <span>{data.content}</span>}
        <span className={styles.badge} data-status={data.status} data-testid="subtodo-status" style={statusIconStyle(data.status)}>
          {statusLabel(data.status)}
        </span>
      </div>
      {reply?.content ? <p className={styles.childReply}>{reply.content.length > 240 ? `${reply.content.slice(0, 239)}…` : reply.content}</p> : null}
    </li>
  );
}
