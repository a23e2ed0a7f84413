import type { Caller } from "../../auth/caller.ts";
import type { TRendererCardInfo } from "../../../lib/schemas/cards.ts";
import { db } from "../../runtime.ts";
import { requireProjectAccess, visibleProjectsWhere } from "../access.ts";

type CardRow = { id: string; projectId: string; name: string; description: string; html: string; createdAt: Date };

function toCardInfo(c: CardRow): TRendererCardInfo {
  return { id: c.id, projectId: c.projectId, name: c.name, description: c.description, html: c.html, createdAt: c.createdAt.getTime() };
}

/** The project's renderer cards, oldest first. */
export async function listCards(caller: Caller, projectId: string): Promise<TRendererCardInfo[]> {
  await requireProjectAccess(caller, projectId, "read");
  const rows = await db().rendererCard.findMany({ where: { projectId, project: visibleProjectsWhere(caller) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toCardInfo);
}
