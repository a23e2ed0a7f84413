"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { apiFetch } from "@/lib/api-client";
import { ZProjectUpdateInput, type TProjectFull } from "@/lib/schemas/projects";
import { errorMessage, issueMessages } from "@/lib/ui/format";
import type { RealtimeStatus } from "@/lib/realtime-client";
import { useShell } from "@/components/shell/shell-context";
import { DeleteProjectDialog } from "./delete-project-dialog";
import { ShareForm } from "./share-form";

type Panel = "none" | "rename" | "share";

const LIVE_TEXT: Record<RealtimeStatus, string> = { connecting: "Connecting…", live: "Live", offline: "Offline, reconnecting…" };

export function ProjectHeader({
  project,
  live,
  onRenamed,
  onDeleted,
}: {
  project: TProjectFull;
  live: RealtimeStatus;
  onRenamed(name: string): void;
  onDeleted(): void;
}) {
  const { defaultProjectId, setDefaultProjectId, refreshProjects } = useShell();
  const id = useId();
  const [panel, setPanel] = useState<Panel>("none");
  const [name, setName] = useState(project.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const canWrite = project.role !== "viewer";
  const isOwner = project.role === "owner";
  const isDefault = defaultProjectId === project.id;

  function openRename() {
    setName(project.name);
    setError(null);
    setPanel("rename");
  }

  async function rename(e: FormEvent) {
    e.preventDefault();
    const parsed = ZProjectUpdateInput.safeParse({ name });
    if (!parsed.success) {
      setError(issueMessages(parsed.error.issues, { name: "Name" }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await apiFetch<null>(`/projects/${encodeURIComponent(project.id)}`, { method: "PUT", body: parsed.data });
      onRenamed(parsed.data.name!);
      setPanel("none");
      void refreshProjects();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function makeDefault() {
    setBusy(true);
    setError(null);
    try {
      await apiFetch<null>("/users/default-project", { method: "POST", body: { projectId: project.id } });
      setDefaultProjectId(project.id);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <header className="project-header">
      <div className="title-row">
        <h1 data-testid="project-name">{project.name}</h1>
        {project.role !== "owner" ? <span className={`role-badge role-${project.role}`}>Shared with you · {project.role}</span> : null}
        {isDefault ? <span className="tag">Default project</span> : null}
        <span className={`live live-${live}`} data-testid="live-status" aria-live="polite">
          {LIVE_TEXT[live]}
        </span>
      </div>
      {project.description ? <p className="muted">{project.description}</p> : null}

      <div className="toolbar" role="group" aria-label="Project actions">
        {canWrite ? (
          <button type="button" className="secondary" onClick={openRename} aria-expanded={panel === "rename"}>
            Rename
          </button>
        ) : null}
        {isOwner ? (
          <button type="button" className="secondary" onClick={() => setPanel(panel === "share" ? "none" : "share")} aria-expanded={panel === "share"}>
            Share…
          </button>
        ) : null}
        {!isDefault ? (
          <button type="button" className="secondary" onClick={makeDefault} disabled={busy}>
            Make default
          </button>
        ) : null}
        <Link href={`/projects/${project.id}/settings`} className="button-link">
          Project settings
        </Link>
        {isOwner ? (
          <button type="button" className="secondary danger-outline" onClick={() => setConfirmDelete(true)}>
            Delete project…
          </button>
        ) : null}
      </div>

      {panel === "rename" ? (
        <form className="panel" onSubmit={rename} noValidate aria-label="Rename project">
          <label htmlFor={`${id}-name`}>Project name</label>
          <div className="inline-fields">
            <input
              id={`${id}-name`}
              type="text"
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoFocus
              aria-invalid={error ? true : undefined}
              onKeyDown={(e) => e.key === "Escape" && setPanel("none")}
            />
            <button type="submit" disabled={busy}>
              Save
            </button>
            <button type="button" className="secondary" onClick={() => setPanel("none")}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {panel === "share" ? <ShareForm projectId={project.id} onDone={() => setPanel("none")} /> : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}

      {isOwner ? (
        <DeleteProjectDialog projectId={project.id} name={project.name} open={confirmDelete} onClose={() => setConfirmDelete(false)} onDeleted={onDeleted} />
      ) : null}
    </header>
  );
}
