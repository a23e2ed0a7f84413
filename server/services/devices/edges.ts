import type { TEdge } from "../../../lib/schemas/devices.ts";
import type { Caller } from "../../auth/caller.ts";
import { notFound } from "../../http/errors.ts";
import { joinRoom } from "../../realtime/sockets.ts";
import { db, runtime } from "../../runtime.ts";
import { keyGone } from "../api-keys/api-keys.ts";

type EdgeRow = { id: string; name: string; metadata: unknown; lastSeenAt: Date | null; createdAt: Date; updatedAt: Date };

function toEdge(row: EdgeRow): TEdge {
  return {
    id: row.id,
    name: row.name,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    lastSeenAt: row.lastSeenAt ? row.lastSeenAt.getTime() : null,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

/** An edge of the caller's, or 404 (another user's edge is not revealed). */
export async function getEdgeOrThrow(caller: Caller, edgeId: string) {
  const row = await db().edge.findUnique({ where: { id: edgeId } });
  if (!row || row.userId !== caller.userId) throw notFound("Edge");
  return row;
}

export async function listEdges(caller: Caller): Promise<TEdge[]> {
  const rows = await db().edge.findMany({ where: { userId: caller.userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toEdge);
}

export async function getEdge(caller: Caller, edgeId: string): Promise<TEdge> {
  return toEdge(await getEdgeOrThrow(caller, edgeId));
}

export async function updateEdge(caller: Caller, edgeId: string, patch: { name?: string; metadata?: Record<string, unknown> }): Promise<null> {
  await getEdgeOrThrow(caller, edgeId);
  const data = { ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.metadata !== undefined ? { metadata: patch.metadata as object } : {}) };
  const { count } = await db().edge.updateMany({ where: { id: edgeId, userId: caller.userId }, data });
  if (count === 0) throw notFound("Edge");
  const row = await getEdgeOrThrow(caller, edgeId);
  runtime().bus.publish({ type: "edge.updated", edgeId, userId: caller.userId, data: toEdge(row) });
  return null;
}

/** edge_delete: the edge and the API key its login made (named `edge:<id>`), whose connections close. */
export async function deleteEdge(caller: Caller, edgeId: string): Promise<null> {
  await getEdgeOrThrow(caller, edgeId);
  const keys = await db().apiKey.findMany({ where: { userId: caller.userId, name: edgeKeyName(edgeId) }, select: { id: true, name: true } });
  const { count } = await db().$transaction(async (tx) => {
    await tx.apiKey.deleteMany({ where: { id: { in: keys.map((k) => k.id) } } });
    return tx.edge.deleteMany({ where: { id: edgeId, userId: caller.userId } });
  });
  if (count === 0) throw notFound("Edge");
  for (const k of keys) await keyGone(caller.userId, k);
  runtime().bus.publish({ type: "edge.updated", edgeId, userId: caller.userId, data: { id: edgeId, deleted: true } });
  return null;
}

export async function subscribeEdge(caller: Caller, edgeId: string, socketId: string | undefined): Promise<null> {
  await getEdgeOrThrow(caller, edgeId);
  await joinRoom(runtime().io, socketId, caller, `edge:${edgeId}`);
  return null;
}

export function edgeKeyName(edgeId: string): string {
  return `edge ${edgeId}`;
}
