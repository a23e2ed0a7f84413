import type { Metadata } from "next";
import { ProjectView } from "@/components/projects/project-view";

export const metadata: Metadata = { title: "Project · Todo Service" };

export default async function ProjectPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  // Keyed by project, so moving to another project starts from a clean state.
  return <ProjectView key={projectId} projectId={projectId} />;
}
