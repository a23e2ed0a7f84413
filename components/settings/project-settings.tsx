"use client";

import Link from "next/link";
import { useState } from "react";
import { useOperation } from "@/lib/api/swr";
import { LoadError, Loading } from "@/components/ui/load-state";
import { ProjectAgentMappingForm } from "./project-agent-mapping-form";
import { ProjectCards } from "./project-cards";
import { ProjectSettingsForm } from "./project-settings-form";
import styles from "./settings.module.css";

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
  const input = { params: { projectId } };
  const reads = [useOperation("project_get", input), useOperation("settings_getProjectSettings", input), useOperation("project_groups", input)] as const;
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);

  const [project, settings, groups] = [reads[0].data, reads[1].data, reads[2].data];
  if (!project || !settings || !groups) {
    const error = reads.find((r) => r.error)?.error;
    if (!error || reads.some((r) => r.isValidating)) return <Loading label="Loading project settings…" />;
    const retry = () => void Promise.all(reads.map((r) => r.mutate()));
    return error.status === 404 ? <NotFound /> : <LoadError what="the project settings" message={error.message} onRetry={retry} />;
  }
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
      <ProjectCards projectId={project.id} />
    </>
  );
}
