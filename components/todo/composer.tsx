"use client";

import { useId, useState, type ReactNode } from "react";
import Link from "next/link";
import { ApiClientError, call } from "@/lib/api/client";
import { errorMessage } from "@/lib/ui/form-issues";
import { formatDateTime } from "@/lib/ui/format";
import { localStore } from "@/lib/ui/local-store";
import type { TMessage } from "@/lib/schemas/todos";
import { toLocalInput, validateNewMessage } from "./form-validation";
import { IssueList } from "@/components/ui/issue-list";
import styles from "./todo.module.css";

type Props = {
  todoId: string;
  /** Why the API would refuse a message now (cancelled, proposed), or null. */
  closedReason: string | null;
  onSent: (message: TMessage) => void;
  /** The agent is writing: a Stop button pauses the turn (it can be resumed from where it stopped). */
  onStop?: () => Promise<void>;
  /** Ends the row of buttons: the model picker. */
  picker?: ReactNode;
};

/** Where the unsent text of a todo's composer is kept, so a reload does not lose it. */
const draftKey = (todoId: string) => `todo-service:draft:${todoId}`;

const readDraft = (todoId: string) => localStore.get(draftKey(todoId)) ?? "";
const writeDraft = (todoId: string, text: string) => localStore.set(draftKey(todoId), text);

const inAnHour = () => toLocalInput(Date.now() + 60 * 60 * 1000);

/** A 402's reason in the reader's own time: which window is used up and when it opens again. */
function paymentMessage(err: ApiClientError): string {
  const window = typeof err.data?.window === "string" ? err.data.window : null;
  const resetsAt = typeof err.data?.resetsAt === "number" ? err.data.resetsAt : null;
  if (!window || !resetsAt) return err.message;
  const when = formatDateTime(resetsAt);
  const whose = typeof err.data?.teamId === "string" ? "your team's" : "your plan's";
  return `The agent can't start: ${whose} ${window} usage window is used up until ${when}.`;
}

export function Composer({ todoId, closedReason, onSent, onStop, picker }: Props) {
  const id = useId();
  // The chat mounts the composer only once the todo has loaded in the browser, so the draft can be
  // read at once (no server render to match). The chat keys it by todo.
  const [content, setContentState] = useState(() => (typeof window === "undefined" ? "" : readDraft(todoId)));
  const [stopping, setStopping] = useState(false);
  const setContent = (text: string) => {
    setContentState(text);
    writeDraft(todoId, text);
  };
  const [scheduling, setScheduling] = useState(false);
  const [when, setWhen] = useState("");
  const [issues, setIssues] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // The agent may not start for billing (402): the refusal names the window and when it resets.
  const [paymentNeeded, setPaymentNeeded] = useState(false);
  const disabled = busy || closedReason !== null;

  async function submit(schedule: boolean) {
    if (disabled) return;
    const parsed = await validateNewMessage(content, schedule ? when : undefined);
    setNotice(null);
    if (!parsed.ok) return setIssues(parsed.issues);
    setIssues([]);
    setPaymentNeeded(false);
    setBusy(true);
    try {
      const message = await call("todo_addMessage", { params: { todoId }, body: parsed.value });
      onSent(message);
      setContent("");
      if (schedule) {
        setScheduling(false);
        setNotice("Message scheduled.");
      }
    } catch (err) {
      const payment = err instanceof ApiClientError && err.status === 402;
      setIssues([payment ? paymentMessage(err) : errorMessage(err)]);
      setPaymentNeeded(payment);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className={`card ${styles.composer}`}
      aria-label="New message"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit(false);
      }}
    >
      <div className={styles.field}>
        <label htmlFor={`${id}-message`} className="visually-hidden">
          Message
        </label>
        <textarea
          id={`${id}-message`}
          className={styles.textarea}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          onKeyDown={(e) => {
            // Enter sends and Shift+Enter adds a line, as in every mainstream chat; Ctrl/⌘+Enter
            // sends too. Not while an input method is composing (Enter then picks a candidate).
            if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void submit(false);
            }
          }}
          placeholder="Ask the agent, or write a list with lines starting with “- ”"
          aria-describedby={`${id}-hint`}
          disabled={closedReason !== null}
          rows={2}
        />
        <span id={`${id}-hint`} className={`muted ${styles.hint}`}>
          {closedReason ?? "Enter sends · Shift+Enter adds a line"}
        </span>
      </div>
      {scheduling ? (
        <div className={styles.schedulePanel}>
          <div className={styles.field}>
            <label htmlFor={`${id}-when`}>Send at</label>
            <input id={`${id}-when`} type="datetime-local" className={styles.datetime} value={when} onChange={(e) => setWhen(e.target.value)} autoFocus />
          </div>
          <button type="button" onClick={() => void submit(true)} disabled={disabled} aria-busy={busy}>
            Schedule message
          </button>
          <button type="button" className="secondary" onClick={() => setScheduling(false)}>
            Close
          </button>
        </div>
      ) : null}
      <IssueList issues={issues} />
      {paymentNeeded ? (
        <p className={styles.hint}>
          Your message is kept here. <Link href="/billing">Open billing</Link> to see your usage windows, add credit or change plan, then send it again.
        </p>
      ) : null}
      <div className={styles.composerRow}>
        <button type="submit" disabled={disabled} aria-busy={busy && !scheduling}>
          Send
        </button>
        {onStop ? (
          <button
            type="button"
            className="secondary"
            disabled={stopping}
            aria-busy={stopping}
            title="Pause the agent: it stops writing, and Resume carries on from there"
            onClick={() => {
              setStopping(true);
              void onStop().finally(() => setStopping(false));
            }}
          >
            ■ Stop
          </button>
        ) : null}
        {!scheduling ? (
          <button
            type="button"
            className="secondary"
            disabled={disabled}
            onClick={() => {
              setScheduling(true);
              setWhen((w) => w || inAnHour());
            }}
          >
            Schedule…
          </button>
        ) : null}
        <span role="status" className="muted">
          {notice}
        </span>
        {picker}
      </div>
    </form>
  );
}
