import type { Metadata } from "next";
import { ProjectView } from "@/components/projects/project-view";
import { notFound } from "next/navigation";
import { cookieCall, cookieGet } from "@/components/shell/cookie-get";

type Params = { params: Promise<{ projectId: string }> };

/** The window's title names the project (the view keeps it current when the project is renamed). */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { projectId } = await params;
  const project = await cookieGet("project_get", { params: { projectId } });
  return { title: project ? `${project.name} · Todo Service` : "Project not found · Todo Service" };
}

export default async function ProjectPage({ params }: Params) {
  const { projectId } = await params;
  // A project that does not exist (or that the user may not read) is this page's 404 (not-found.tsx),
  // answered here with the read the metadata made: the view would ask for its todos, groups and
  // room only to hear 404 for each. One the user loses later is the view's to notice.
  if ((await cookieCall("project_get", { params: { projectId } }))?.status === 404) notFound();
  // Keyed by project, so moving to another project starts from a clean state.
  return <ProjectView key={projectId} projectId={projectId} />;
}
