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
  const role = project ? roleOf(project, userId) : null;
  return role ? { role, ownerId: project!.ownerId } : null;
}

function roleOf(project: { ownerId: string; shares: { role: ProjectRole }[] }, userId: string): ProjectRole | null {
  if (project.ownerId === userId) return "owner";
  return project.shares[0]?.role ?? null;
}

function assertAllowed(role: ProjectRole | null, need: Need): asserts role is ProjectRole {
  if (!role) throw notFound("Project");
  if (!allows(role, need)) {
    throw new ApiError("FORBIDDEN", need === "owner" ? "Only the project's owner may do this" : "Your access to this project is read-only");
  }
}

/** The project row and the caller's role in one query, or the same errors as requireProjectAccess. */
export async function getProjectOrThrow(caller: Caller, projectId: string, need: Need) {
  const project = await db().project.findUnique({
    where: { id: projectId },
    include: { shares: { where: { userId: caller.userId }, select: { role: true } } },
  });
  const role = project ? roleOf(project, caller.userId) : null;
  assertAllowed(role, need);
  return { project: project!, role };
}

/**
 * Loads access for a project or throws: 404 when the caller may not even read it (existence is
 * not revealed), 403 when they may read but the action needs more.
 */
export async function requireProjectAccess(caller: Caller, projectId: string, need: Need): Promise<ProjectRole> {
  const access = await projectRole(projectId, caller.userId);
  const role = access?.role ?? null;
  assertAllowed(role, need);
  return role;
}

/**
 * A todo with the caller's role on its project. Todo access is project access (SPEC §5); a
 * mayfly token scoped to another todo is refused with 403.
 */
export async function getTodoOrThrow(caller: Caller, todoId: string, need: Need) {
  if (caller.todoScope && caller.todoScope !== todoId) throw new ApiError("FORBIDDEN", "This token is scoped to another todo");
  const todo = await db().todo.findUnique({
    where: { id: todoId },
    include: { group: { select: { slug: true } }, project: { select: { ownerId: true, shares: { where: { userId: caller.userId }, select: { role: true } } } } },
  });
  const role = todo ? roleOf(todo.project, caller.userId) : null;
  if (!role) throw notFound("Todo");
  if (!allows(role, need)) throw new ApiError("FORBIDDEN", "Your access to this project is read-only");
  return { todo: todo!, role };
}
