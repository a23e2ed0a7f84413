"use client";

import type { ReactNode } from "react";
import { useModalDialog } from "@/lib/ui/use-modal-dialog";

/**
 * The console's confirmation of an action that reaches people or replaces data: a modal dialog
 * (focus inside, starting on Cancel; Escape cancels), and focus back on the button that opened it
 * once it closes (useModalDialog).
 */
export function ConfirmDialog({ title, confirmLabel, busy, onConfirm, onCancel, children }: { title: string; confirmLabel: string; busy: boolean; onConfirm: () => void; onCancel: () => void; children: ReactNode }) {
  const ref = useModalDialog(true);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-text"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <p id="confirm-text" data-testid="confirm-text">
        {children}
      </p>
      <div className="dialog-actions">
        <button type="button" className="secondary" disabled={busy} onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
