import type { Caller } from "../../auth/caller.ts";
import type { TRendererCardInfo } from "../../../lib/schemas/cards.ts";
import { db, runtime } from "../../runtime.ts";
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

/** What a card's renderer may be: HTML, at most this many characters. */
export const CARD_HTML_MAX = 20_000;

/**
 * Defines the project's card `name`, or replaces its renderer (and description) when one of that
 * name exists: one statement, so two turns defining the same card at once leave one. Writers only.
 * `project.updated` carries `{action: "card", card}`.
 */
export async function defineCard(caller: Caller, projectId: string, input: { name: string; html: string; description?: string }): Promise<{ card: TRendererCardInfo; created: boolean }> {
  await requireProjectAccess(caller, projectId, "write");
  const before = await db().rendererCard.findUnique({ where: { projectId_name: { projectId, name: input.name } }, select: { id: true } });
  const row = await db().rendererCard.upsert({
    where: { projectId_name: { projectId, name: input.name } },
    create: { projectId, name: input.name, html: input.html, description: input.description ?? "" },
    update: { html: input.html, ...(input.description === undefined ? {} : { description: input.description }) },
  });
  const card = toCardInfo(row);
  runtime().bus.publish({ type: "project.updated", projectId, data: { action: "card", card } });
  return { card, created: before === null };
}

/** The project's card `name` (null when it has none), for a caller who may read the project. */
export async function findCard(caller: Caller, projectId: string, name: string): Promise<TRendererCardInfo | null> {
  await requireProjectAccess(caller, projectId, "read");
  const row = await db().rendererCard.findUnique({ where: { projectId_name: { projectId, name } } });
  return row ? toCardInfo(row) : null;
}
