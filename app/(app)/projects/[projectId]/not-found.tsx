import { ProjectNotFound } from "@/components/projects/project-gone";

// The page's own 404 (page.tsx calls notFound() when project_get answers 404), in the app's frame.
export default function NotFound() {
  return <ProjectNotFound />;
}
