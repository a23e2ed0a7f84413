"use client";

import { useLayoutEffect, useRef } from "react";
import type { TBlock, TMessage } from "@/lib/schemas/todos";
import { MessageItem } from "./message-item";
import styles from "./todo.module.css";

type Props = {
  messages: TMessage[];
  hasOlder: boolean;
  loadingOlder: boolean;
  olderError: string | null;
  onLoadOlder: () => Promise<void>;
  agentName: string | null;
  projectId: string;
  onCheck: (block: TBlock, checked: boolean) => Promise<void>;
  onChanged: () => void;
  paused: boolean;
};

/** Near the bottom is where a chat follows new text; elsewhere the reader keeps their place. */
const STICK_PX = 48;

export function MessageList({ messages, hasOlder, loadingOlder, olderError, onLoadOlder, agentName, projectId, onCheck, onChanged, paused }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** Set just before older messages are prepended: the distance from the bottom to keep. */
  const anchor = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current !== null) {
      // Older messages went in above: keep what the reader was looking at in place.
      el.scrollTop = el.scrollHeight - anchor.current;
      anchor.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages]);

  async function loadOlder() {
    const el = scroller.current;
    if (el) anchor.current = el.scrollHeight - el.scrollTop;
    await onLoadOlder();
  }

  return (
    <div className={`card ${styles.messagesCard}`}>
      <div
        ref={scroller}
        className={styles.scroller}
        // Focusable, so the conversation scrolls from the keyboard too.
        tabIndex={0}
        role="region"
        aria-label="Messages"
        data-testid="messages"
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
        }}
      >
        {hasOlder ? (
          <div className={styles.olderRow}>
            <button type="button" className="secondary" onClick={() => void loadOlder()} disabled={loadingOlder} aria-busy={loadingOlder}>
              {loadingOlder ? "Loading older messages…" : "Load older messages"}
            </button>
            {olderError ? (
              <p className="error" role="alert" style={{ margin: 0 }}>
                Could not load older messages: {olderError}
              </p>
            ) : null}
          </div>
        ) : null}
        {messages.length === 0 ? (
          <p className={`muted ${styles.empty}`}>No messages yet. Write the first one below.</p>
        ) : (
          <ol className={styles.list}>
            {messages.map((m) => (
              <MessageItem key={m.id} message={m} agentName={agentName} projectId={projectId} onCheck={onCheck} onChanged={onChanged} paused={paused} />
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
