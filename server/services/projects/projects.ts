import type { Caller } from "../../auth/caller.ts";
import type { TProjectCreateInput, TProjectFull, TProjectMember } from "../../../lib/schemas/projects.ts";
import { db, runtime } from "../../runtime.ts";
import { accessInclude, getProjectOrThrow, needToChange, requireProjectAccess, roleFor, visibleProjectsWhere, type ProjectRole } from "../access.ts";
import { toProjectFull } from "./serialize.ts";
import { runningShellRuns, stopShellRuns } from "../todos/shell-runs.ts";

export async function listProjects(caller: Caller): Promise<TProjectFull[]> {
  const rows = await db().project.findMany({
    where: visibleProjectsWhere(caller),
    include: accessInclude(caller),
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.flatMap((p) => {
    const role = roleFor(caller, p);
    return role ? [toProjectFull(p, role)] : [];
  });
}

export async function createProject(caller: Caller, input: Required<TProjectCreateInput>): Promise<TProjectFull> {
  const project = await db().project.create({
    data: { ownerId: caller.userId, name: input.name, description: input.description, isPublic: input.isPublic },
  });
  runtime().bus.publish({ type: "project.updated", projectId: project.id, userId: caller.userId, data: { action: "created", project: toProjectFull(project, "owner") } });
  return toProjectFull(project, "owner");
}

/** The project's owner, the users it is shared with, and the members of the team it is the shared project of. */
export async function memberIds(projectId: string): Promise<string[]> {
  const project = await db().project.findUnique({
    where: { id: projectId },
    select: { ownerId: true, shares: { select: { userId: true } }, team: { select: { members: { select: { userId: true } } } } },
  });
  if (!project) return [];
  return [...new Set([project.ownerId, ...project.shares.map((s) => s.userId), ...(project.team?.members.map((m) => m.userId) ?? [])])];
}

/**
 * project_getMembers: who reads the project (owner, sharees, the team of a team project), with
 * name and email, so a shared todo's chat can say who wrote each message (Message.authorId).
 * Any member may read it, a viewer too; a stranger gets 404 as for the project.
 */
export async function getMembers(caller: Caller, projectId: string): Promise<{ items: TProjectMember[] }> {
  await requireProjectAccess(caller, projectId, "read");
  const person = { select: { id: true, name: true, email: true } } as const;
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { owner: person, shares: { select: { role: true, user: person } }, team: { select: { members: { select: { user: person } } } } },
  });
  const byId = new Map<string, TProjectMember>();
  const add = (u: { id: string; name: string | null; email: string }, role: TProjectMember["role"]) => {
    const had = byId.get(u.id);
    // A sharee who is also in the project's team writes it: the wider role shows.
    if (!had || (had.role === "viewer" && role !== "viewer")) byId.set(u.id, { userId: u.id, name: u.name, email: u.email, role });
  };
  add(project.owner, "owner");
  for (const s of project.shares) add(s.user, s.role);
  for (const m of project.team?.members ?? []) add(m.user, "editor");
  const [owner, ...others] = [...byId.values()];
  return { items: [owner!, ...others.sort((a, b) => a.email.localeCompare(b.email))] };
}

export async function getProject(caller: Caller, projectId: string): Promise<TProjectFull> {
  const { project, role } = await getProjectOrThrow(caller, projectId, "read");
  return toProjectFull(project, role);
}

export async function updateProject(
  caller: Caller,
  projectId: string,
  patch: { name?: string; description?: string; isPublic?: boolean },
): Promise<null> {
  // Editors rename and describe; making the project public is the owner's.
  const role: ProjectRole = await requireProjectAccess(caller, projectId, needToChange("project", patch));
  const project = await db().project.update({ where: { id: projectId }, data: patch });
  // To the project's room, and to every member's own connections (their project lists).
  runtime().bus.publish({ type: "project.updated", projectId, audience: await memberIds(projectId), data: { action: "updated", project: toProjectFull(project, role) } });
  return null;
}

export async function deleteProject(caller: Caller, projectId: string): Promise<null> {
  await requireProjectAccess(caller, projectId, "owner");
  const audience = await memberIds(projectId);
  const runs = await runningShellRuns({ projectId });
  await db().$transaction([
    db().user.updateMany({ where: { defaultProjectId: projectId }, data: { defaultProjectId: null } }),
    // Todos, messages, blocks, groups and shares go with it through ON DELETE CASCADE.
    db().project.delete({ where: { id: projectId } }),
  ]);
  runtime().bus.publish({ type: "project.deleted", projectId, audience, data: { projectId } });
  stopShellRuns(runs);
  return null;
}
