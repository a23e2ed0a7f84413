"use client";

import { useId, useState } from "react";
import { call } from "@/lib/api/client";
import { errorMessage } from "@/lib/ui/form-issues";
import { startWith } from "@/lib/ui/agent-start";
import type { TBlock, TMessage } from "@/lib/schemas/todos";
import { withoutListOf } from "@/lib/list-items";
import { BlockList, blockText } from "./block-list";
import { Markdown } from "./markdown";
import { formatDateTime } from "@/lib/ui/format";
import { toLocalInput, validateMessageEdit } from "./form-validation";
import { IssueList } from "@/components/ui/issue-list";
import { ReportDialog } from "./report-dialog";
import { useCopyText } from "@/lib/ui/use-copy-text";
import styles from "./todo.module.css";

export const ROLE_LABEL: Record<TMessage["role"], string> = { user: "You", assistant: "Agent", system: "System", tool: "Tool" };
const ROLE_ARIA: Record<TMessage["role"], string> = { user: "Your message", assistant: "Agent's reply", system: "System message", tool: "Tool output" };

/** The text to show: an agent's list that became checklist blocks is shown once, as the checklist. */
function shownText(message: TMessage): string {
  if (message.role !== "assistant" || message.blocks.length === 0) return message.content;
  const items = new Set(message.blocks.filter((b) => b.type === "checklist_item").map(blockText).filter((t): t is string => t !== null));
  return withoutListOf(message.content, items);
}

type Props = {
  message: TMessage;
  agentName?: string | null;
  projectId?: string;
  /** Absent: read-only (the public page). */
  onCheck?: (block: TBlock, checked: boolean) => Promise<void>;
  /** Absent: read-only. Called after an edit or start the server accepted. */
  onChanged?: () => void;
  /** A reply cut by a pause stays PROCESSING until resumed: say so instead of "writing…". */
  paused?: boolean;
  /** The todo was cancelled: a waiting message will never be answered, and says so. */
  cancelled?: boolean;
  /** The reader may not write (a viewer): a scheduled message cannot be edited or sent from here. */
  readOnly?: boolean;
  /** Who wrote this user message, when it is not the reader ("You"): a member's name, or "User" (the public page, which names no one: the owner and editors may have written). */
  userLabel?: string;
  /** In a member's chat, a user message someone else wrote: it sits on the other side, like a reply, in its own colour. */
  fromOther?: boolean;
};

export function MessageItem({ message, agentName, projectId, onCheck, onChanged, paused, cancelled, readOnly, userLabel, fromOther }: Props) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const role = message.role === "assistant" && agentName ? agentName : message.role === "user" && userLabel ? userLabel : ROLE_LABEL[message.role];
  const scheduled = message.state === "SCHEDULED";
  const canEdit = scheduled && message.role === "user" && !!onChanged && !readOnly;
  // A finished reply can be reported (not on the public page, which has no onChanged).
  const canReport = message.role === "assistant" && (message.state === "DONE" || message.state === "ERROR") && !!onChanged;
  const [reporting, setReporting] = useState(false);
  const [reported, setReported] = useState(false);
  // A whole message as its Markdown; without clipboard access its rendered text is selected instead.
  // Not on the public page (no onChanged), which has no controls.
  const canCopy = message.content.trim() !== "" && message.state !== "PROCESSING" && !editing && !!onChanged;
  const { ref: textRef, state: copied, copy } = useCopyText<HTMLDivElement>(2000);

  async function sendNow() {
    setBusy(true);
    setError(null);
    try {
      await startWith(message.todoId, message);
      onChanged?.();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={styles.item} data-role={message.role} data-author={fromOther ? "other" : undefined} data-state={message.state} data-testid="message" data-message-id={message.messageId}>
      <article className={styles.bubble} aria-label={message.role === "user" && userLabel ? `${userLabel}'s message` : ROLE_ARIA[message.role]} aria-busy={message.state === "PROCESSING"}>
        <div className={styles.meta}>
          <span className={styles.roleLabel}>{role}</span>
          {message.role === "assistant" && message.usage?.provider === "local" ? (
            <span className={styles.replyTag} data-testid="offline-agent" title="Written by the built-in agent: deterministic and offline, not a language model">
              built-in offline agent
            </span>
          ) : message.role === "assistant" && message.usage?.model ? (
            <span className={styles.replyTag} data-testid="reply-model" title={`Written by ${message.usage.model}${message.usage.provider ? ` (${message.usage.provider})` : ""}`}>
              {message.usage.model}
            </span>
          ) : null}
          <time dateTime={new Date(message.createdAt).toISOString()} suppressHydrationWarning>{formatDateTime(message.createdAt)}</time>
          {message.state === "PENDING" ? <span>{cancelled ? "not answered: the todo was cancelled" : "waiting for the agent"}</span> : null}
          {message.state === "ERROR" ? <span className="error">failed</span> : null}
          {canCopy || canReport ? (
            <span className={styles.metaActions}>
              {canCopy ? (
                <button type="button" className="link-button" onClick={() => void copy(message.content)} aria-label={copied === "idle" ? `Copy this ${message.role === "assistant" ? "reply" : "message"} from ${formatDateTime(message.createdAt)}` : undefined}>
                  {copied === "copied" ? "Copied" : copied === "selected" ? "Selected: press Ctrl+C" : "Copy"}
                </button>
              ) : null}
              {canReport ? (
                <button type="button" className="link-button" onClick={() => setReporting(true)} disabled={reported} aria-label={reported ? "Reported" : `Report this reply from ${formatDateTime(message.createdAt)}`}>
                  {reported ? "Reported" : "Report"}
                </button>
              ) : null}
            </span>
          ) : null}
        </div>
        {reporting ? (
          <ReportDialog
            todoId={message.todoId}
            messageId={message.messageId}
            onClose={() => setReporting(false)}
            onSent={() => {
              setReporting(false);
              setReported(true);
            }}
          />
        ) : null}
        {scheduled && message.scheduledAt !== null ? (
          <p className={styles.meta} data-testid="scheduled-at" style={{ margin: "0 0 0.3rem" }}>
            Scheduled for <time dateTime={new Date(message.scheduledAt).toISOString()} suppressHydrationWarning>{formatDateTime(message.scheduledAt)}</time>
          </p>
        ) : null}
        {editing && canEdit ? (
          <EditScheduled
            message={message}
            onFailed={setError}
            onDone={(changed) => {
              setEditing(false);
              if (changed) onChanged?.();
            }}
          />
        ) : (
          <div ref={textRef}>
            <Markdown text={shownText(message)} />
          </div>
        )}
        {message.content === "" && message.state === "ERROR" ? (
          <p className="muted" style={{ margin: 0 }}>
            The reply failed before any text was written.
          </p>
        ) : null}
        {message.state === "PROCESSING" && paused ? (
          <span className="muted" data-testid="paused-reply" style={{ fontSize: "0.85rem" }}>
            paused mid-reply
          </span>
        ) : message.state === "PROCESSING" ? (
          <span className={styles.writing} data-testid="writing">
            writing…
          </span>
        ) : null}
        <BlockList blocks={message.blocks} projectId={projectId} onCheck={onCheck} />
        {canEdit && !editing ? (
          <div className={styles.messageActions}>
            <button type="button" className={`secondary ${styles.small}`} onClick={() => setEditing(true)} disabled={busy}>
              Edit
            </button>
            <button type="button" className={styles.small} onClick={() => void sendNow()} disabled={busy} aria-busy={busy}>
              Send now
            </button>
          </div>
        ) : null}
        {error ? (
          <p className="error" role="alert" style={{ margin: "0.4rem 0 0" }}>
            {error}
          </p>
        ) : null}
      </article>
    </li>
  );
}

type EditProps = { message: TMessage; onDone: (changed: boolean) => void; onFailed: (error: string | null) => void };

function EditScheduled({ message, onDone, onFailed }: EditProps) {
  const id = useId();
  const [content, setContent] = useState(message.content);
  const [when, setWhen] = useState(message.scheduledAt !== null ? toLocalInput(message.scheduledAt) : "");
  const [issues, setIssues] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    const parsed = await validateMessageEdit(content, when);
    if (!parsed.ok) return setIssues(parsed.issues);
    setBusy(true);
    setIssues([]);
    onFailed(null);
    try {
      await call("todo_updateMessage", { params: { todoId: message.todoId, messageId: message.messageId }, body: parsed.value });
      onDone(true);
    } catch (err) {
      // A 409 means the message started meanwhile: the API's message says so. It is shown by the
      // message itself, since this form goes away once the message is no longer SCHEDULED.
      onFailed(`Could not save: ${errorMessage(err)}`);
      setBusy(false);
    }
  }

  return (
    <form className={styles.editForm} onSubmit={(e) => void save(e)} aria-label="Edit scheduled message" noValidate>
      <div className={styles.field}>
        <label htmlFor={`${id}-content`}>Message</label>
        <textarea id={`${id}-content`} className={styles.textarea} value={content} onChange={(e) => (setContent(e.target.value), setIssues([]))} autoFocus />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-when`}>Send at</label>
        <input id={`${id}-when`} type="datetime-local" className={styles.datetime} value={when} onChange={(e) => (setWhen(e.target.value), setIssues([]))} />
      </div>
      <IssueList issues={issues} />
      <div className={styles.messageActions}>
        <button type="submit" className={styles.small} disabled={busy} aria-busy={busy}>
          Save
        </button>
        <button type="button" className={`secondary ${styles.small}`} onClick={() => onDone(false)} disabled={busy}>
          Discard changes
        </button>
      </div>
    </form>
  );
}
