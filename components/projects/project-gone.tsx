import Link from "next/link";
import type { ReactNode } from "react";

/** The page of a project that is not there (any more), with the way back. */
export function ProjectGone({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card empty-state" aria-labelledby={id}>
      <h1 id={id}>{title}</h1>
      <p>{children}</p>
      <p>
        <Link href="/">Go to your projects</Link>
      </p>
    </section>
  );
}

/** A project that does not exist or that the user may not read (the API does not tell them apart). */
export function ProjectNotFound() {
  return (
    <ProjectGone id="not-found-heading" title="Project not found">
      This project does not exist, or it has not been shared with you.
    </ProjectGone>
  );
}
