import type { TProject, TProjectFull } from "../../../lib/schemas/projects.ts";
import type { ProjectRole } from "../access.ts";

type ProjectRow = {
  id: string;
  name: string;
  description: string;
  isPublic: boolean;
  ownerId: string;
  settings: unknown;
  createdAt: Date;
  updatedAt: Date;
};

export function toProject(p: ProjectRow): TProject {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    isPublic: p.isPublic,
    ownerId: p.ownerId,
    createdAt: p.createdAt.getTime(),
    updatedAt: p.updatedAt.getTime(),
  };
}

export function toProjectFull(p: ProjectRow, role: ProjectRole): TProjectFull {
  const settings = p.settings && typeof p.settings === "object" && !Array.isArray(p.settings) ? (p.settings as Record<string, unknown>) : {};
  return { ...toProject(p), role, settings };
}
