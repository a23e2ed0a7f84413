"use client";

import { useId, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { call } from "@/lib/api/client";
import { ZReportAiOutputInput } from "@/lib/schemas/todos";
import type { TAiReport } from "@/lib/schemas/reports";
import { useModalDialog } from "@/lib/ui/use-modal-dialog";
import { errorMessage, issueSummary } from "@/lib/ui/form-issues";
import { ErrorAlert } from "@/components/ui/error-alert";
import styles from "./todo.module.css";

export const REPORT_REASONS: { value: TAiReport["reason"]; label: string }[] = [
  { value: "offensive", label: "Offensive" },
  { value: "unsafe", label: "Unsafe or harmful" },
  { value: "incorrect", label: "Wrong or misleading" },
  { value: "other", label: "Something else" },
];

/**
 * Reports an agent's reply for review (todo_reportAiOutput): what is wrong with it and, if the
 * reporter wants, why. A native modal <dialog>; `onSent` after the server took it.
 */
export function ReportDialog({ todoId, messageId, onClose, onSent }: { todoId: string; messageId: string; onClose: () => void; onSent: () => void }) {
  const ref = useModalDialog(true);
  const id = useId();
  const [reason, setReason] = useState<TAiReport["reason"] | null>(null);
  const [details, setDetails] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send(e: FormEvent) {
    e.preventDefault();
    if (!reason) return setError("Choose what is wrong with the reply.");
    const parsed = ZReportAiOutputInput.safeParse({ todoId, messageId, reason, details: details.trim() });
    if (!parsed.success) return setError(issueSummary(parsed.error.issues, { details: "Details" }));
    setBusy(true);
    setError(null);
    try {
      await call("todo_reportAiOutput", { body: parsed.data });
      toast.success("Thank you: the reply is reported for review.");
      onSent();
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
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <form onSubmit={(e) => void send(e)} noValidate>
        <h2 id={`${id}-title`}>Report this reply</h2>
        <p className="muted">An administrator reviews what you report, with the reply&apos;s text.</p>
        <fieldset className={styles.reportReasons}>
          <legend>What is wrong with it?</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r.value} className="checkbox-field">
              <input type="radio" name={`${id}-reason`} value={r.value} checked={reason === r.value} onChange={() => setReason(r.value)} />
              {r.label}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-details`}>Details (optional)</label>
        <textarea id={`${id}-details`} value={details} onChange={(e) => setDetails(e.target.value)} rows={3} maxLength={5000} />
        <ErrorAlert message={error} />
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" disabled={busy}>
            {busy ? "Sending…" : "Send report"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
