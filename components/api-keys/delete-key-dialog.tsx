"use client";

import { useModalDialog } from "@/lib/ui/use-modal-dialog";
import { ErrorAlert } from "@/components/ui/error-alert";
import styles from "./api-keys.module.css";

type Props = { name: string; busy: boolean; error: string | null; onCancel: () => void; onConfirm: () => void };

/** A modal confirmation (native <dialog>: focus stays inside, Escape cancels). */
export function DeleteKeyDialog({ name, busy, error, onCancel, onConfirm }: Props) {
  const ref = useModalDialog(true);
  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby="delete-key-title"
      aria-describedby="delete-key-desc"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id="delete-key-title" className={styles.dialogTitle}>
        Delete API key “{name}”?
      </h2>
      <p id="delete-key-desc">Scripts and tools using this key stop working at once. This cannot be undone.</p>
      <ErrorAlert message={error} />
      <div className={styles.dialogActions}>
        <button type="button" className="secondary" onClick={onCancel} disabled={busy} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
          {busy ? "Deleting…" : "Delete key"}
        </button>
      </div>
    </dialog>
  );
}
