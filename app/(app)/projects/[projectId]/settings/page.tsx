import type { Metadata } from "next";
import { ProjectSettings } from "@/components/settings/project-settings";

export const metadata: Metadata = { title: "Project settings · Todo Service" };

export default async function ProjectSettingsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  // Keyed by id: moving to another project's settings starts from a fresh load.
  return <ProjectSettings key={projectId} projectId={projectId} />;
}
