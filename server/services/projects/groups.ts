import type { Caller } from "../../auth/caller.ts";
import type { TProjectGroupUpsertInput, TTodoGroup } from "../../../lib/schemas/groups.ts";
import { db, runtime } from "../../runtime.ts";
import { requireProjectAccess, visibleProjectsWhere } from "../access.ts";

type GroupRow = { id: string; projectId: string; slug: string; name: string; position: number; createdAt: Date; updatedAt: Date };

const INT_MAX = 2_147_483_647;

export function toTodoGroup(g: GroupRow, todoCount: number): TTodoGroup {
  return {
    id: g.id,
    projectId: g.projectId,
    slug: g.slug,
    name: g.name,
    position: g.position,
    todoCount,
    createdAt: g.createdAt.getTime(),
    updatedAt: g.updatedAt.getTime(),
  };
}

/** Every group of the project, empty ones included, by position, then creation time. */
export async function listGroups(caller: Caller, projectId: string): Promise<TTodoGroup[]> {
  await requireProjectAccess(caller, projectId, "read");
  const rows = await db().todoGroup.findMany({
    where: { projectId, project: visibleProjectsWhere(caller) },
    include: { _count: { select: { todos: true } } },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((g) => toTodoGroup(g, g._count.todos));
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}

async function upsertRow(projectId: string, slug: string, input: TProjectGroupUpsertInput) {
  // A new group without a position goes after the last one; a renamed group keeps its place.
  let createPosition = input.position;
  if (createPosition === undefined) {
    const { _max } = await db().todoGroup.aggregate({ where: { projectId }, _max: { position: true } });
    createPosition = _max.position === null ? 0 : Math.min(_max.position + 1, INT_MAX);
  }
  return db().todoGroup.upsert({
    where: { projectId_slug: { projectId, slug } },
    create: { projectId, slug, name: input.name, position: createPosition },
    update: { name: input.name, ...(input.position !== undefined ? { position: input.position } : {}) },
  });
}

/** Creates the group with this slug, or renames (and, with a position, moves) it. Needs write access. */
export async function upsertGroup(caller: Caller, projectId: string, slug: string, input: TProjectGroupUpsertInput): Promise<TTodoGroup> {
  await requireProjectAccess(caller, projectId, "write");
  let row: GroupRow;
  try {
    row = await upsertRow(projectId, slug, input);
  } catch (err) {
    // Two first upserts of one slug at once: the loser's insert collides; the row exists now, so update it.
    if (!isUniqueViolation(err)) throw err;
    row = await upsertRow(projectId, slug, input);
  }
  const todoCount = await db().todo.count({ where: { groupId: row.id } });
  const group = toTodoGroup(row, todoCount);
  runtime().bus.publish({ type: "project.updated", projectId, data: { action: "group", group } });
  return group;
}
