"use client";

import { useState } from "react";
import { call } from "@/lib/api/client";
import { useLiveOperations, useOperation } from "@/lib/api/swr";
import { LoadError, Loading } from "@/components/ui/load-state";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EdgeItem } from "./edge-item";
import settingsStyles from "@/components/settings/settings.module.css";

const when = (ms: number | null) => (ms ? new Date(ms).toLocaleString() : "never");

/** What changes the devices list: online, offline, enrolled, workspace paths changed, removed (each elsewhere too). */
const DEVICE_EVENTS = new Set(["device.online", "device.offline", "device.created", "device.updated", "device.deleted"]);

/** The user's bridge devices (live: online, offline, enrolled, changed or removed elsewhere) and edges (live: renamed, removed); each can be removed, an edge renamed. */
export function Devices() {
  const devices = useOperation("device_list", {});
  const edges = useOperation("edge_list", {});
  const [busy, setBusy] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ kind: "device" | "edge"; id: string; name: string } | null>(null);
  useLiveOperations(
    (e) => (DEVICE_EVENTS.has(e.type) ? ["device_list"] : e.type === "edge.updated" ? ["edge_list"] : []),
    ["device_list", "edge_list"],
  );

  /** Removes what `removing` names; a failure stays in the dialog (ConfirmDialog shows what this throws). */
  async function remove() {
    if (!removing) return;
    const { kind, id } = removing;
    setBusy(id);
    try {
      if (kind === "device") {
        await call("device_delete", { params: { id }, body: { id } });
        await devices.mutate();
      } else {
        await call("edge_delete", { params: { edgeId: id }, body: { edgeId: id } });
        await edges.mutate();
      }
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <section className="card" aria-labelledby="devices-heading">
        <h2 id="devices-heading" className={settingsStyles.sectionTitle}>
          Machines (bridges)
        </h2>
        <p className="muted">
          Run <code>todo bridge</code> on a machine to connect it. A device is online while its bridge is connected.
        </p>
        {devices.data ? (
          devices.data.length === 0 ? (
            <p>No devices yet.</p>
          ) : (
            <ul data-testid="device-list">
              {devices.data.map((d) => (
                <li key={d.id} data-testid="device" data-online={d.online}>
                  <strong>{d.name}</strong> — {d.online ? "online" : "offline"} · last seen {when(d.lastSeenAt)}
                  {d.workspacePaths.length ? (
                    <>
                      {" "}
                      · <code>{d.workspacePaths.join(", ")}</code>
                    </>
                  ) : null}{" "}
                  <button type="button" className="secondary" disabled={busy === d.id} onClick={() => setRemoving({ kind: "device", id: d.id, name: d.name })} aria-label={`Remove ${d.name}`}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )
        ) : devices.error ? (
          <LoadError what="your devices" message={devices.error.message} onRetry={() => void devices.mutate()} inline />
        ) : (
          <Loading label="Loading your devices…" inline />
        )}
      </section>
      <section className="card" aria-labelledby="edges-heading">
        <h2 id="edges-heading" className={settingsStyles.sectionTitle}>
          Edges
        </h2>
        {edges.data ? (
          edges.data.length === 0 ? (
            <p>No edges yet.</p>
          ) : (
            <ul>
              {edges.data.map((e) => (
                <EdgeItem key={e.id} edge={e} busy={busy === e.id} onRemove={() => setRemoving({ kind: "edge", id: e.id, name: e.name })} onRenamed={() => edges.mutate()} />
              ))}
            </ul>
          )
        ) : edges.error ? (
          <LoadError what="your edges" message={edges.error.message} onRetry={() => void edges.mutate()} inline />
        ) : (
          <Loading label="Loading your edges…" inline />
        )}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title={removing ? `Remove “${removing.name}”?` : ""}
        description={removing?.kind === "device" ? "Its bridge is disconnected and its credentials stop working at once; the machine can be connected again with todo bridge." : "Its credentials stop working at once."}
        confirmLabel="Remove"
        busyLabel="Removing…"
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}
