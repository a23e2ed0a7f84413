"use client";

import { useEffect, useState } from "react";
import type { TProjectFull } from "@/lib/schemas/projects";
import { apiFetch } from "@/lib/api-client";

type State = { kind: "loading" } | { kind: "error"; message: string } | { kind: "ready"; projects: TProjectFull[] };

export function ProjectList() {
  const [state, setState] = useState<State>({ kind: "loading" });
  useEffect(() => {
    apiFetch<TProjectFull[]>("/projects")
      .then((projects) => setState({ kind: "ready", projects }))
      .catch((err: Error) => setState({ kind: "error", message: err.message }));
  }, []);
  return (
    <section className="card" aria-labelledby="projects-heading">
      <h2 id="projects-heading">Projects</h2>
      {state.kind === "loading" ? <p className="muted">Loading projects…</p> : null}
      {state.kind === "error" ? <p className="error" role="alert">Could not load projects: {state.message}</p> : null}
      {state.kind === "ready" && state.projects.length === 0 ? <p className="muted">No projects yet.</p> : null}
      {state.kind === "ready" && state.projects.length > 0 ? (
        <ul className="plain" data-testid="project-list">
          {state.projects.map((p) => (
            <li key={p.id}>
              <strong>{p.name}</strong> <span className="muted">({p.role})</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
