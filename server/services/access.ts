import type { Caller } from "../auth/caller.ts";
import { ApiError, notFound } from "../http/errors.ts";
import { db } from "../runtime.ts";

// The one place that decides who may read or write a project (and so its todos).
export type ProjectRole = "owner" | "editor" | "viewer";
export type Need = "read" | "write" | "owner";

const RANK: Record<ProjectRole, number> = { viewer: 1, editor: 2, owner: 3 };
const NEEDED: Record<Need, number> = { read: 1, write: 2, owner: 3 };

export function allows(role: ProjectRole, need: Need): boolean {
  return RANK[role] >= NEEDED[need];
}

/** The caller's role on a project, or null when the project is missing or not theirs to see. */
export async function projectRole(projectId: string, userId: string): Promise<{ role: ProjectRole; ownerId: string } | null> {
  const project = await db().project.findUnique({
    where: { id: projectId },
    select: { ownerId: true, shares: { where: { userId }, select: { role: true } } },
  });
  if (!project) return null;
  if (project.ownerId === userId) return { role: "owner", ownerId: project.ownerId };
  const share = project.shares[0];
  if (share) return { role: share.role, ownerId: project.ownerId };
  return null;
}

/**
 * Loads access for a project or throws: 404 when the caller may not even read it (existence is
 * not revealed), 403 when they may read but the action needs more.
 */
export async function requireProjectAccess(caller: Caller, projectId: string, need: Need): Promise<ProjectRole> {
  const access = await projectRole(projectId, caller.userId);
  if (!access) throw notFound("Project");
  if (!allows(access.role, need)) {
    throw new ApiError("FORBIDDEN", need === "owner" ? "Only the project's owner may do this" : "Your access to this project is read-only");
  }
  return access.role;
}
