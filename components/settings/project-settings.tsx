"use client";

import Link from "next/link";
import { useState } from "react";
import { apiFetch } from "@/lib/api-client";
import type { TTodoGroup } from "@/lib/schemas/groups";
import type { TProjectFull } from "@/lib/schemas/projects";
import type { TProjectSettingsFull } from "@/lib/schemas/settings";
import { LoadError, Loading, useLoad } from "./load-state";
import { ProjectAgentMappingForm } from "./project-agent-mapping-form";
import { ProjectSettingsForm } from "./project-settings-form";
import styles from "./settings.module.css";

async function loadProject(projectId: string) {
  const id = encodeURIComponent(projectId);
  const [project, settings, groups] = await Promise.all([
    apiFetch<TProjectFull>(`/projects/${id}`),
    apiFetch<TProjectSettingsFull>(`/settings/projects/${id}`),
    apiFetch<TTodoGroup[]>(`/projects/${id}/groups`),
  ]);
  return { project, settings, groups };
}

function NotFound() {
  return (
    <section className={`card ${styles.state}`} aria-labelledby="not-found-heading" data-testid="project-not-found">
      <h1 id="not-found-heading">Project not found</h1>
      <p>This project does not exist, or it has not been shared with you.</p>
      <p>
        <Link href="/">Back to your projects</Link>
      </p>
    </section>
  );
}

export function ProjectSettings({ projectId }: { projectId: string }) {
  const [state, retry] = useLoad(() => loadProject(projectId));
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);

  if (state.kind === "loading") return <Loading label="Loading project settings…" />;
  if (state.kind === "error") {
    return state.status === 404 ? <NotFound /> : <LoadError what="the project settings" message={state.message} onRetry={retry} />;
  }
  const { project, settings, groups } = state.data;
  const changed = updatedAt ?? settings.updatedAt;
  return (
    <>
      <header className={styles.header}>
        <Link href={`/projects/${encodeURIComponent(project.id)}`} className={styles.backLink}>
          ← Back to {project.name}
        </Link>
        <h1>
          Settings: {project.name} <span className={styles.role}>{project.role}</span>
        </h1>
        <p className="muted">Last changed {new Date(changed).toLocaleString()}</p>
      </header>
      <ProjectSettingsForm projectId={project.id} initial={settings} groups={groups} canEdit={project.role !== "viewer"}
        canEditAgentDefaults={project.role === "owner"}
        onSaved={(s) => setUpdatedAt(s.updatedAt)} />
      <ProjectAgentMappingForm projectId={project.id} initial={settings.agentSettings} />
    </>
  );
}
