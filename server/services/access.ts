import type { Caller } from "../auth/caller.ts";
import { Prisma } from "../db/generated/client.ts";
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
export async function projectRole(caller: Caller, projectId: string): Promise<{ role: ProjectRole; ownerId: string } | null> {
  const project = await db().project.findUnique({
    where: { id: projectId },
    select: { ownerId: true, ...accessInclude(caller) },
  });
  const role = project ? roleOf(project, caller.userId) : null;
  return role ? { role, ownerId: project!.ownerId } : null;
}

/** What a project row needs loaded for `roleOf`: the caller's share and team membership, nothing else. */
type AccessRow = { ownerId: string; shares: { role: ProjectRole }[]; team?: { members: unknown[] } | null };

/**
 * The two ways into a project besides owning it: a share (editor or viewer), or membership of
 * the team whose shared project it is (editor: SPEC.md §4.5 "All members get write access").
 * The better of the two counts.
 */
function roleOf(project: AccessRow, userId: string): ProjectRole | null {
  if (project.ownerId === userId) return "owner";
  if (project.team?.members.length) return "editor";
  return project.shares[0]?.role ?? null;
}

/**
 * The projects that give a caller `need`: owned, shared with them (an editor's share for "write"),
 * or their team's shared project (editor). roleOf's rule as a filter.
 */
function projectAccessWhere(caller: Pick<Caller, "userId">, need: Need): Prisma.ProjectWhereInput {
  const { userId } = caller;
  if (need === "owner") return { ownerId: userId };
  return {
    OR: [
      { ownerId: userId },
      { shares: { some: need === "read" ? { userId } : { userId, role: "editor" } } },
      { team: { is: { members: { some: { userId } } } } },
    ],
  };
}

/**
 * The projects a caller may read: owned, shared with them, or their team's shared project. The
 * one visibility rule of every list query (projects, and through `visibleTodosWhere` todos, tasks
 * and messages), so a list never shows what getProjectOrThrow / getTodoOrThrow would hide.
 */
export function visibleProjectsWhere(caller: Pick<Caller, "userId">): Prisma.ProjectWhereInput {
  return projectAccessWhere(caller, "read");
}

/**
 * `visibleProjectsWhere` for raw SQL (full-text search, server/services/search): the ids of the
 * projects the caller may read, by the same three ways in. Kept next to it so the two change
 * together; server/operations/list-visibility.test.ts holds every list to getProjectOrThrow.
 */
export function visibleProjectIdsSql(caller: Pick<Caller, "userId">): Prisma.Sql {
  const uid = caller.userId;
  return Prisma.sql`(SELECT "id" FROM "Project" WHERE "ownerId" = ${uid}
    UNION ALL SELECT "projectId" FROM "ProjectShare" WHERE "userId" = ${uid}
    UNION ALL SELECT t."projectId" FROM "Team" t JOIN "TeamMember" tm ON tm."teamId" = t."id" WHERE tm."userId" = ${uid} AND t."projectId" IS NOT NULL)`;
}

/** The todos a caller may read: those of visible projects; for a todo-scoped token, only its todo. */
export function visibleTodosWhere(caller: Pick<Caller, "userId" | "todoScope">): Prisma.TodoWhereInput {
  return todoAccessWhere(caller, "read");
}

/**
 * The todos whose project gives the caller `need` (for a todo-scoped token, only its todo): what a
 * write can carry in its own WHERE, so it checks access and writes in one statement (todo_update).
 * A write that matches nothing asks getTodoOrThrow why, for the same 404 and 403. Held to
 * getTodoOrThrow for every role and need by server/operations/list-visibility.test.ts.
 */
export function todoAccessWhere(caller: Pick<Caller, "userId" | "todoScope">, need: Need): Prisma.TodoWhereInput {
  return { project: projectAccessWhere(caller, need), ...(caller.todoScope ? { id: caller.todoScope } : {}) };
}

/** Spread this into a project query's include (or select), then `roleFor` gives the caller's role on each row. */
export function accessInclude(caller: Pick<Caller, "userId">) {
  const { userId } = caller;
  return {
    shares: { where: { userId }, select: { role: true } },
    team: { select: { members: { where: { userId }, select: { id: true } } } },
  } as const;
}

/** The caller's role on a project row loaded with `accessInclude(caller)`; null when hidden. */
export function roleFor(caller: Caller, project: AccessRow): ProjectRole | null {
  return roleOf(project, caller.userId);
}

/**
 * Fields that only the project's owner may set, although editors may write the rest of the same
 * object (docs/api.md "Who may publish"): making a todo or the project public, and the project's
 * agent defaults (they apply to every member's new todos).
 */
export const OWNER_ONLY_FIELDS = {
  todo: ["isPublic"],
  project: ["isPublic"],
  projectSettings: ["agentDefaults"],
} as const;

/** The need of a partial update: "owner" when it sets any owner-only field, else "write". */
export function needToChange(kind: keyof typeof OWNER_ONLY_FIELDS, patch: object): Need {
  const fields: readonly string[] = OWNER_ONLY_FIELDS[kind];
  return fields.some((f) => (patch as Record<string, unknown>)[f] !== undefined) ? "owner" : "write";
}

function forbidden(need: Need): ApiError {
  return new ApiError("FORBIDDEN", need === "owner" ? "Only the project's owner may do this" : "Your access to this project is read-only");
}

function assertAllowed(role: ProjectRole | null, need: Need): asserts role is ProjectRole {
  if (!role) throw notFound("Project");
  if (!allows(role, need)) throw forbidden(need);
}

/** The project row and the caller's role in one query, or the same errors as requireProjectAccess. */
export async function getProjectOrThrow(caller: Caller, projectId: string, need: Need) {
  const project = await db().project.findUnique({
    where: { id: projectId },
    include: accessInclude(caller),
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
  const access = await projectRole(caller, projectId);
  const role = access?.role ?? null;
  assertAllowed(role, need);
  return role;
}

/**
 * A todo with the caller's role on its project. Todo access is project access (SPEC §5); a
 * mayfly token scoped to another todo is refused with 403.
 */
export async function getTodoOrThrow(caller: Caller, todoId: string, need: Need) {
  assertTodoInScope(caller, todoId);
  const todo = await db().todo.findUnique({
    where: { id: todoId },
    include: { group: { select: { slug: true } }, project: { select: { ownerId: true, ...accessInclude(caller) } } },
  });
  const role = todoRole(caller, todo, need);
  return { todo: todo!, role };
}

/** getTodoOrThrow's check and errors without the todo's row: only its status is read (the socket handshake's subscriptions). */
export async function requireTodoAccess(caller: Caller, todoId: string, need: Need) {
  assertTodoInScope(caller, todoId);
  const todo = await db().todo.findUnique({
    where: { id: todoId },
    select: { status: true, project: { select: { ownerId: true, ...accessInclude(caller) } } },
  });
  const role = todoRole(caller, todo, need);
  return { status: todo!.status, role };
}

function assertTodoInScope(caller: Caller, todoId: string): void {
  if (caller.todoScope && caller.todoScope !== todoId) throw new ApiError("FORBIDDEN", "This token is scoped to another todo");
}

/** The caller's role on a todo's project, or 404 (hidden or missing) / 403 (the need is beyond it). */
function todoRole(caller: Caller, todo: { project: AccessRow } | null, need: Need): ProjectRole {
  const role = todo ? roleOf(todo.project, caller.userId) : null;
  if (!role) throw notFound("Todo");
  if (!allows(role, need)) throw forbidden(need);
  return role;
}
