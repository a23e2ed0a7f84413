"use client";

import { useId, useState, type ReactNode } from "react";
import { useModalDialog } from "@/lib/ui/use-modal-dialog";
import { errorMessage } from "@/lib/ui/form-issues";
import { ErrorAlert } from "./error-alert";

type Props = {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  /** The destructive button's label, and its label while `onConfirm` runs. */
  confirmLabel: string;
  busyLabel: string;
  /** Does the thing; what it throws is shown in the dialog, which stays open. */
  onConfirm: () => Promise<void>;
  /** Cancel, Escape, or after `onConfirm` succeeded. */
  onClose: () => void;
  /** `danger` (default): the confirming button is red, for what cannot be undone; `primary` for an action that reaches people. */
  tone?: "danger" | "primary";
};

/**
 * A native modal <dialog> confirming an action (focus stays inside, Escape or Cancel closes, focus
 * goes back to the opener): Cancel has the focus; the other button is red for what cannot be undone.
 */
export function ConfirmDialog({ open, title, description, confirmLabel, busyLabel, onConfirm, onClose, tone = "danger" }: Props) {
  const ref = useModalDialog(open);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setBusy(false);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
      onCancel={(e) => {
        if (busy) e.preventDefault();
      }}
      onClose={() => {
        setError(null);
        onClose();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-desc`} data-testid="confirm-text">
        {description}
      </p>
      <ErrorAlert message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={onClose} disabled={busy} autoFocus>
          Cancel
        </button>
        <button type="button" className={tone === "danger" ? "danger" : undefined} onClick={() => void confirm()} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
