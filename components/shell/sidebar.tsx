"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { TProjectFull } from "@/lib/schemas/projects";
import { SETTINGS_LINKS } from "@/components/settings/settings-nav";
import { signOutAction } from "./actions";
import { NewProjectForm } from "./new-project-form";
import { SearchDialog } from "./search-dialog";
import { useShell } from "./shell-context";

// No project room is joined for the list: the server sends a project's changes (created, shared,
// renamed, deleted) to every member's own room `user:<id>`, which each connection is in.

/** Every account page under app/(app): the settings pages' own tabs, then Billing. */
const ACCOUNT_LINKS = [...SETTINGS_LINKS, { href: "/billing", label: "Billing" }] as const;

function currentProjectId(pathname: string): string | null {
  const m = pathname.match(/^\/projects\/([^/]+)/);
  return m ? decodeURIComponent(m[1]!) : null;
}

function ProjectLinks({ projects, current, showRole }: { projects: TProjectFull[]; current: string | null; showRole: boolean }) {
  return (
    <ul className="plain project-links">
      {projects.map((p) => (
        <li key={p.id}>
          <Link href={`/projects/${p.id}`} aria-current={p.id === current ? "page" : undefined} className="project-link">
            <span className="project-link-name">{p.name}</span>
            {showRole ? <span className={`role-badge role-${p.role}`}>{p.role}</span> : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function Sidebar({ id, open }: { id: string; open: boolean }) {
  const { email, projects } = useShell();
  const pathname = usePathname();
  const current = currentProjectId(pathname);
  const list = projects.phase === "ready" ? projects.list : [];
  const owned = list.filter((p) => p.role === "owner");
  const shared = list.filter((p) => p.role !== "owner");

  return (
    <aside id={id} className={open ? "sidebar open" : "sidebar"} aria-label="Sidebar">
      <div className="sidebar-section sidebar-search">
        <SearchDialog />
      </div>
      <nav aria-label="Tasks" className="sidebar-section">
        <ul className="plain sidebar-links">
          <li>
            <Link href="/upcoming" aria-current={pathname === "/upcoming" ? "page" : undefined}>
              Upcoming
            </Link>
          </li>
        </ul>
      </nav>
      <nav aria-label="Projects" className="sidebar-section" data-testid="project-list">
        <h2 className="sidebar-heading">Your projects</h2>
        {projects.phase === "loading" ? <p className="muted">Loading projects…</p> : null}
        {projects.phase === "error" ? (
          <p className="error" role="alert">
            Could not load projects: {projects.message}
          </p>
        ) : null}
        {projects.phase === "ready" && owned.length === 0 ? <p className="muted">No projects yet.</p> : null}
        {owned.length > 0 ? <ProjectLinks projects={owned} current={current} showRole={false} /> : null}
        {shared.length > 0 ? (
          <>
            <h2 className="sidebar-heading">Shared with you</h2>
            <ProjectLinks projects={shared} current={current} showRole />
          </>
        ) : null}
      </nav>

      <div className="sidebar-section">
        <NewProjectForm />
      </div>

      <nav aria-label="Account" className="sidebar-section">
        <ul className="plain sidebar-links">
          {ACCOUNT_LINKS.map((l) => (
            <li key={l.href}>
              <Link href={l.href} aria-current={pathname === l.href ? "page" : undefined}>
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <div className="sidebar-section sidebar-account">
        <p className="signed-in">
          Signed in as{" "}
          <strong data-testid="signed-in-email" className="email">
            {email}
          </strong>
        </p>
        <form action={signOutAction}>
          <button type="submit" className="secondary">
            Sign out
          </button>
        </form>
      </div>
    </aside>
  );
}
