import Link from "next/link";
import type { TTodo } from "@/lib/schemas/todos";
import { MessageItem } from "@/components/todo/message-item";
import { StatusBadge } from "@/components/todo/status-badge";
import todoStyles from "@/components/todo/todo.module.css";
import styles from "./share.module.css";

/** A public todo, read-only: no status controls, no composer, checklists as marks, not checkboxes. */
export function PublicTodo({ todo }: { todo: TTodo }) {
  const model = todo.agentSettings?.model ?? null;
  return (
    <article className={todoStyles.chat} data-testid="public-todo">
      <header className={`card ${styles.header}`}>
        <p className="muted" style={{ margin: 0 }}>
          Shared todo · read-only
        </p>
        <h1 className={styles.title}>{todo.content}</h1>
        <p className={styles.facts}>
          <StatusBadge status={todo.status} />
          {todo.assignedAgent ? <span data-testid="agent-name">Agent: {todo.assignedAgent}</span> : null}
          {model ? <span className="muted">Model: {model}</span> : null}
        </p>
        {todo.status === "ERROR" && typeof todo.metadata.error === "string" ? (
          <p className={todoStyles.errorReason}>
            <strong>The agent stopped with an error:</strong> {todo.metadata.error}
          </p>
        ) : null}
      </header>
      <section className={`card ${styles.messages}`} aria-label="Conversation">
        {todo.hasMoreMessages ? <p className="muted">Older messages are not shown.</p> : null}
        {todo.messages.length === 0 ? (
          <p className="muted">No messages yet.</p>
        ) : (
          <ol className={todoStyles.list}>
            {todo.messages.map((m) => (
              <MessageItem key={m.id} message={m} agentName={todo.assignedAgent} paused={todo.status === "PAUSED"} />
            ))}
          </ol>
        )}
      </section>
      <p className={`muted ${styles.footer}`}>
        Shared from Todo Service. <Link href="/signin">Sign in</Link> to run your own todos.
      </p>
    </article>
  );
}
