"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorAlert } from "@/components/ui/error-alert";
import { LiveStatus } from "@/components/ui/live-status";
import { call } from "@/lib/api/client";
import { RenameInput } from "@/components/ui/rename-input";
import { ZProjectUpdateInput, type TProjectFull } from "@/lib/schemas/projects";
import { useForm } from "@/components/ui/form";
import type { RealtimeStatus } from "@/lib/realtime-client";
import { useShell } from "@/components/shell/shell-context";
import { ShareForm } from "./share-form";

type Panel = "none" | "rename" | "share";

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
  const { busy, alert, setAlert, submit, run } = useForm({ labels: { name: "Name" } });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const canWrite = project.role !== "viewer";
  const isOwner = project.role === "owner";
  const isDefault = defaultProjectId === project.id;

  function openRename() {
    setName(project.name);
    setAlert(null);
    setPanel("rename");
  }

  async function rename(e: FormEvent<HTMLFormElement>) {
    await submit(e, ZProjectUpdateInput.safeParse({ name }), async (body) => {
      await call("project_update", { params: { projectId: project.id }, body });
      onRenamed(body.name!);
      setPanel("none");
      void refreshProjects();
    });
  }

  async function makeDefault() {
    await run(async () => {
      await call("user_setDefaultProject", { body: { projectId: project.id } });
      setDefaultProjectId(project.id);
    });
  }

  return (
    <header className="project-header">
      <div className="title-row">
        <h1 data-testid="project-name">{project.name}</h1>
        {project.role !== "owner" ? <span className={`role-badge role-${project.role}`}>Shared with you · {project.role}</span> : null}
        {isDefault ? <span className="tag">Default project</span> : null}
        <LiveStatus live={live} />
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
            <RenameInput id={`${id}-name`} value={name} onChange={setName} onCancel={() => setPanel("none")} invalid={Boolean(alert)} />
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
      <ErrorAlert message={alert} />

      {isOwner ? (
        <ConfirmDialog
          open={confirmDelete}
          title={`Delete project “${project.name}”?`}
          description="The project and all its todos and messages are deleted permanently. This cannot be undone."
          confirmLabel="Delete permanently"
          busyLabel="Deleting…"
          onConfirm={async () => {
            await call("project_delete", { params: { projectId: project.id }, body: { projectId: project.id } });
            onDeleted();
          }}
          onClose={() => setConfirmDelete(false)}
        />
      ) : null}
    </header>
  );
}
