import type { TTodoStatus } from "@/lib/schemas/todos";
import { statusIconStyle, statusLabel } from "@/lib/ui/status";
import styles from "./todo.module.css";

/** The todo's status; announced politely when it changes. */
export function StatusBadge({ status }: { status: TTodoStatus }) {
  return (
    <span role="status" aria-live="polite" aria-atomic="true">
      <span className="visually-hidden">Status: </span>
      <span className={styles.badge} data-status={status} data-testid="todo-status" style={statusIconStyle(status)}>
        {statusLabel(status)}
      </span>
    </span>
  );
}
