import type { z } from "zod";
import type { Caller } from "../../auth/caller.ts";
import { Prisma } from "../../db/generated/client.ts";
import { log } from "../../log.ts";
import { db } from "../../runtime.ts";
import { epochMs } from "../../../lib/schemas/common.ts";
import type { ZUnifiedSearchPage, ZUnifiedSearchQuery } from "../../../lib/schemas/search.ts";
import { visibleProjectIdsSql } from "../access.ts";
import { embeddingProvider } from "./embeddings.ts";
import { hitSql, matchFilters, toHit, type MessageSearchRow } from "./messages.ts";
import { queryWords, tsquerySql } from "./query.ts";

// todo_searchUnified: exact matches grouped per todo, then a related tail (docs/api.md "Search").
//
// Exact: the newest EXACT_WINDOW matching messages (the GIN index), grouped per todo in order of
// each todo's newest match; each group shows its best-ranked message (ts_rank; ties: the newer).
// Related: cosine distance between the query's embedding and the stored vectors of todos and
// memory notes the caller may read, of the configured model. pgvector is not available on the
// embedded database (PGlite ships without it), so vectors are REAL[] and the distance is computed
// in SQL over a bounded candidate set: the CANDIDATES most recently embedded todos and as many
// notes. Older items beyond that bound are not in the tail (bench/search.ts measures the cost).

export const EXACT_WINDOW = 200;
export const CANDIDATES = 2000;

type Out = z.input<typeof ZUnifiedSearchPage>;

async function exactGroups(caller: Caller, query: Prisma.Sql, o: z.output<typeof ZUnifiedSearchQuery>): Promise<Out["exact"]> {
  const matches = await db().$queryRaw<{ id: string; todoId: string; rank: number }[]>`
    SELECT m."id", m."todoId", ts_rank(m."searchVector", ${query})::float8 AS "rank"
    FROM "Message" m JOIN "Todo" t ON t."id" = m."todoId"
    WHERE ${matchFilters(caller, query, { projectId: o.projectId })}
    ORDER BY m."seq" DESC
    LIMIT ${EXACT_WINDOW}`;
  const groups = new Map<string, { best: { id: string; rank: number }; count: number }>();
  for (const m of matches) {
    const g = groups.get(m.todoId);
    if (!g) groups.set(m.todoId, { best: m, count: 1 });
    else {
      g.count++;
      if (m.rank > g.best.rank) g.best = m;
    }
  }
  const chosen = [...groups.entries()].slice(0, o.limit);
  if (chosen.length === 0) return [];
  const ids = chosen.map(([, g]) => g.best.id);
  const rows = await db().$queryRaw<MessageSearchRow[]>(
    hitSql(
      Prisma.sql`SELECT m."id", m."todoId", t."projectId", m."role", m."createdAt", m."seq", m."content"
        FROM "Message" m JOIN "Todo" t ON t."id" = m."todoId" WHERE m."id" IN (${Prisma.join(ids)})`,
      query,
    ),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lastAt = new Map<string, number>();
  // The newest match of each todo: the first of its rows in `matches` (seq descending) is at
  // least as new as its best; read its time from the hits when it is the best, else ask.
  const newest = await db().message.findMany({
    where: { id: { in: chosen.map(([todoId]) => matches.find((m) => m.todoId === todoId)!.id) } },
    select: { todoId: true, createdAt: true },
  });
  for (const n of newest) lastAt.set(n.todoId, epochMs(n.createdAt));
  return chosen.flatMap(([todoId, g]) => {
    const row = byId.get(g.best.id);
    // Deleted between the two reads: left out rather than shown half.
    if (!row) return [];
    const best = toHit(row);
    return [{
      todoId,
      projectId: best.projectId,
      projectName: best.projectName,
      todoTitle: best.todoTitle,
      todoStatus: best.todoStatus,
      matchCount: g.count,
      lastMatchAt: lastAt.get(todoId) ?? best.createdAt,
      best,
    }];
  });
}

/** The related tail's SQL: nearest first, over the bounded candidate set (see above). */
export function relatedSql(caller: Pick<Caller, "userId">, o: { model: string; vector: number[]; maxDistance: number; projectId?: string; take: number; notesOnly?: boolean }): Prisma.Sql {
  const visible = visibleProjectIdsSql(caller);
  const todoScope = o.projectId ? Prisma.sql`AND t."projectId" = ${o.projectId}` : Prisma.empty;
  const noteScope = o.projectId ? Prisma.sql`n."projectId" = ${o.projectId} AND n."projectId" IN ${visible}` : Prisma.sql`((n."projectId" IS NULL AND n."userId" = ${caller.userId}) OR n."projectId" IN ${visible})`;
  return Prisma.sql`
    WITH cand AS (
      (SELECT 'todo' AS "kind", t."id", t."projectId", left(t."content", 200) AS "title", e."vector"
       FROM "SearchEmbedding" e JOIN "Todo" t ON t."id" = e."todoId"
       WHERE e."model" = ${o.model} AND t."projectId" IN ${visible} ${todoScope} ${o.notesOnly ? Prisma.sql`AND false` : Prisma.empty}
       ORDER BY e."updatedAt" DESC LIMIT ${CANDIDATES})
      UNION ALL
      (SELECT 'note' AS "kind", n."id", n."projectId", left(n."content", 200) AS "title", e."vector"
       FROM "SearchEmbedding" e JOIN "MemoryNote" n ON n."id" = e."noteId"
       WHERE e."model" = ${o.model} AND ${noteScope}
       ORDER BY e."updatedAt" DESC LIMIT ${CANDIDATES})
    ), scored AS (
      SELECT c."kind", c."id", c."projectId", c."title",
             (1 - (SELECT coalesce(sum(a * b), 0) FROM unnest(c."vector", ${o.vector}::real[]) AS x(a, b)))::float8 AS "score"
      FROM cand c
    )
    SELECT * FROM scored WHERE "score" <= ${o.maxDistance} ORDER BY "score" ASC, "id" ASC LIMIT ${o.take}`;
}

async function related(caller: Caller, q: string, o: z.output<typeof ZUnifiedSearchQuery>, exclude: Set<string>): Promise<Out["related"]> {
  if (o.relatedLimit === 0) return [];
  const provider = embeddingProvider();
  let vector: number[];
  try {
    [vector] = (await provider.embed([q])) as [number[]];
  } catch (err) {
    // The exact part still answers; the tail is empty while the provider fails.
    log.warn("query embedding failed; related results left out", { model: provider.model, error: err instanceof Error ? err.message : String(err) });
    return [];
  }
  const rows = await db().$queryRaw<{ kind: "todo" | "note"; id: string; projectId: string | null; title: string; score: number }[]>(
    relatedSql(caller, { model: provider.model, vector, maxDistance: provider.maxDistance, projectId: o.projectId, take: o.relatedLimit + exclude.size }),
  );
  return rows
    .filter((r) => !(r.kind === "todo" && exclude.has(r.id)))
    .slice(0, o.relatedLimit)
    .map((r) => ({ kind: r.kind, id: r.id, projectId: r.projectId, title: r.title, score: Math.round(r.score * 1e6) / 1e6 }));
}

export async function searchUnified(caller: Caller, input: z.output<typeof ZUnifiedSearchQuery>): Promise<Out> {
  const query = tsquerySql(queryWords(input.q));
  const exact = await exactGroups(caller, query, input);
  const tail = await related(caller, input.q, input, new Set(exact.map((g) => g.todoId)));
  return { exact, related: tail, embeddingModel: embeddingProvider().model };
}

/**
 * The agent's `recall` (and any caller's): the memory notes the caller may read nearest to `text`,
 * nearest first, each with its cosine distance. Personal and readable projects' notes, or only
 * one project's with `projectId`. Notes not embedded yet are not found.
 */
export async function recallNotes(caller: Caller, text: string, o: { projectId?: string; limit?: number } = {}) {
  const provider = embeddingProvider();
  const [vector] = (await provider.embed([text])) as [number[]];
  const rows = await db().$queryRaw<{ id: string; score: number }[]>(
    relatedSql(caller, { model: provider.model, vector, maxDistance: provider.maxDistance, projectId: o.projectId, take: Math.min(Math.max(o.limit ?? 5, 1), 50), notesOnly: true }),
  );
  const notes = await db().memoryNote.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
  const byId = new Map(notes.map((n) => [n.id, n]));
  return rows.flatMap((r) => {
    const n = byId.get(r.id);
    return n ? [{ note: n, score: r.score }] : [];
  });
}
