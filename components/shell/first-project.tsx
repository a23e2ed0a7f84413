"use client";

import { NewProjectForm } from "./new-project-form";
import { useShell } from "./shell-context";

/** The signed-in home when the user has no project: an invitation to create the first one. */
export function FirstProject() {
  const { projects } = useShell();
  // A project shared meanwhile (the sidebar refreshes live) is one click away in the sidebar.
  const shared = projects.phase === "ready" && projects.list.length > 0;
  return (
    <section className="card empty-state" aria-labelledby="first-project-heading">
      <h1 id="first-project-heading">Create your first project</h1>
      <p className="muted">Projects hold your todos. Every todo is a conversation with an AI agent.</p>
      {shared ? <p>A project has been shared with you: open it from the menu.</p> : null}
      <NewProjectForm label="First project name" submitLabel="Create project" />
    </section>
  );
}
