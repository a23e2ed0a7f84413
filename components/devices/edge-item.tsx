"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import { ZEdgeUpdateInput, type TEdge } from "@/lib/schemas/devices";
import { formatDateTime } from "@/lib/ui/format";
import { ErrorAlert } from "@/components/ui/error-alert";
import { useForm } from "@/components/ui/form";
import { RenameInput } from "@/components/ui/rename-input";

/**
 * One edge of Settings → Devices: its name, renamed inline (edge_update, checked with the API's
 * own schema first), and its Remove button. A rename elsewhere arrives as `edge.updated` and the
 * list shows it; the form, while open, keeps what the user is typing.
 */
export function EdgeItem({ edge, busy, onRemove, onRenamed }: { edge: TEdge; busy: boolean; onRemove: () => void; onRenamed: () => Promise<unknown> }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(edge.name);
  // Closing the form (saved, cancelled, Escape) gives focus back to the Rename button, rendered anew.
  const renameButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    renameButton.current?.focus();
  }, [editing]);
  const close = () => {
    refocus.current = true;
    setEditing(false);
  };
  const { busy: saving, alert, setAlert, submit } = useForm({ labels: { name: "Name" } });

  async function rename(e: FormEvent<HTMLFormElement>) {
    await submit(e, ZEdgeUpdateInput.safeParse({ name }), async (body) => {
      await call("edge_update", { params: { edgeId: edge.id }, body });
      await onRenamed();
      close();
    });
  }

  return (
    <li data-testid="edge" data-edge-id={edge.id}>
      {editing ? (
        <>
          <form className="inline-fields" onSubmit={rename} noValidate aria-label={`Rename edge ${edge.name}`}>
            <label htmlFor={`${id}-name`} className="visually-hidden">
              Edge name
            </label>
            <RenameInput id={`${id}-name`} value={name} onChange={setName} onCancel={close} invalid={Boolean(alert)} />
            <button type="submit" disabled={saving} aria-busy={saving}>
              {saving ? "Saving…" : "Save"}
            </button>
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
          </form>
          <ErrorAlert message={alert} />
        </>
      ) : (
        <>
          <strong data-testid="edge-name">{edge.name}</strong> · added {formatDateTime(edge.createdAt)}{" "}
          <button
            ref={renameButton}
            type="button"
            className="secondary"
            onClick={() => {
              setName(edge.name);
              setAlert(null);
              setEditing(true);
            }}
            aria-label={`Rename ${edge.name}`}
          >
            Rename
          </button>{" "}
          <button type="button" className="secondary" disabled={busy} onClick={onRemove} aria-label={`Remove ${edge.name}`}>
            Remove
          </button>
        </>
      )}
    </li>
  );
}
