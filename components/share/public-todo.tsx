import Link from "next/link";
import type { TMessage, TPublicTodo } from "@/lib/schemas/todos";
import { MessageItem } from "@/components/todo/message-item";
import { StatusBadge } from "@/components/todo/status-badge";
import { LiveStatus } from "@/components/ui/live-status";
import type { RealtimeStatus } from "@/lib/realtime-client";
import todoStyles from "@/components/todo/todo.module.css";
import styles from "./share.module.css";

/**
 * A public todo, read-only: no status controls, no composer, checklists as marks, not checkboxes.
 * `messages` are its messages as the chat shows them (./public-view.ts asMessageView), a streaming
 * reply's text included; `before` is set on a page of older messages; `live` is whether its
 * changes arrive (live-public-todo.tsx).
 */
export function PublicTodo({ todo, messages, before, live }: { todo: TPublicTodo; messages: TMessage[]; before?: string; live: RealtimeStatus }) {
  const self = `/share/${encodeURIComponent(todo.id)}`;
  return (
    <article className={todoStyles.chat} data-testid="public-todo">
      <header className={`card ${styles.header}`}>
        <p className="muted" style={{ margin: 0 }}>
          Shared todo · read-only
        </p>
        <h1 className={styles.title}>{todo.content}</h1>
        <p className={styles.facts}>
          <StatusBadge status={todo.status} /> <LiveStatus live={live} />
        </p>
        {todo.status === "ERROR" ? <p className={todoStyles.errorReason}>The agent stopped with an error.</p> : null}
      </header>
      <section className={`card ${styles.messages}`} aria-label="Conversation">
        {todo.nextCursor ? (
          <p>
            <Link href={`${self}?before=${encodeURIComponent(todo.nextCursor)}`} data-testid="older-messages">
              Older messages
            </Link>
          </p>
        ) : null}
        {messages.length === 0 ? (
          <p className="muted">No messages yet.</p>
        ) : (
          <ol className={todoStyles.list}>
            {messages.map((m) => (
              <MessageItem key={m.id} message={m} paused={todo.status === "PAUSED"} cancelled={todo.status === "CANCELLED"} userLabel="User" />
            ))}
          </ol>
        )}
        {before ? (
          <p>
            <Link href={self} data-testid="newest-messages">
              Newest messages
            </Link>
          </p>
        ) : null}
      </section>
      <p className={`muted ${styles.footer}`}>
        Shared from Todo Service. <Link href="/signin">Sign in</Link> to run your own todos.
      </p>
    </article>
  );
}
