import type { Metadata } from "next";
import { ProjectView } from "@/components/projects/project-view";
import { cookieGet } from "@/components/shell/cookie-get";

type Params = { params: Promise<{ projectId: string }> };

/** The window's title names the project (the view keeps it current when the project is renamed). */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { projectId } = await params;
  const project = await cookieGet("project_get", { params: { projectId } });
  return { title: project ? `${project.name} · Todo Service` : "Project not found · Todo Service" };
}

export default async function ProjectPage({ params }: Params) {
  const { projectId } = await params;
  // Keyed by project, so moving to another project starts from a clean state.
  return <ProjectView key={projectId} projectId={projectId} />;
}
