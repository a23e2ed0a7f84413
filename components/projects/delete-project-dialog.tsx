"use client";

import { useState } from "react";
import { useModalDialog } from "@/lib/ui/use-modal-dialog";
import { ErrorAlert } from "@/components/ui/error-alert";
import { call } from "@/lib/api/client";
import { errorMessage } from "@/lib/ui/form-issues";

/** A native modal <dialog> (focus stays inside, Escape closes) that confirms deleting a project. */
export function DeleteProjectDialog({ projectId, name, open, onClose, onDeleted }: { projectId: string; name: string; open: boolean; onClose(): void; onDeleted(): void }) {
  const ref = useModalDialog(open);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await call("project_delete", { params: { projectId }, body: { projectId } });
      onDeleted();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="delete-project-title"
      aria-describedby="delete-project-desc"
      onClose={() => {
        setError(null);
        onClose();
      }}
    >
      <h2 id="delete-project-title">Delete project “{name}”?</h2>
      <p id="delete-project-desc">The project and all its todos and messages are deleted permanently. This cannot be undone.</p>
      <ErrorAlert message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" onClick={confirm} disabled={busy}>
          {busy ? "Deleting…" : "Delete permanently"}
        </button>
      </div>
    </dialog>
  );
}
