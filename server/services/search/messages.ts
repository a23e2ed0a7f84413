import type { z } from "zod";
import type { Caller } from "../../auth/caller.ts";
import { Prisma } from "../../db/generated/client.ts";
import { db } from "../../runtime.ts";
import type { ZMessageSearchQuery, TMessageSearchHit } from "../../../lib/schemas/search.ts";
import type { TTodoStatus } from "../../../lib/schemas/todos.ts";
import { epochMs } from "../../../lib/schemas/common.ts";
import { visibleProjectIdsSql } from "../access.ts";
import { headlineSql, queryWords, splitSnippet, tsquerySql } from "./query.ts";

type SearchOptions = Omit<z.output<typeof ZMessageSearchQuery>, "q"> & { words: string[] };

/** The WHERE of every message search: the words, the caller's projects, the optional scope. */
export function matchFilters(caller: Pick<Caller, "userId" | "todoScope">, query: Prisma.Sql, o: Partial<SearchOptions>): Prisma.Sql {
  const filters: Prisma.Sql[] = [Prisma.sql`m."searchVector" @@ (${query})`, Prisma.sql`t."projectId" IN ${visibleProjectIdsSql(caller)}`];
  if (caller.todoScope) filters.push(Prisma.sql`m."todoId" = ${caller.todoScope}`);
  if (o.projectId) filters.push(Prisma.sql`t."projectId" = ${o.projectId}`);
  if (o.todoId) filters.push(Prisma.sql`m."todoId" = ${o.todoId}`);
  if (o.role) filters.push(Prisma.sql`m."role" = ${o.role}::"MessageRole"`);
  if (o.cursor) filters.push(Prisma.sql`m."seq" < ${BigInt(o.cursor)}`);
  return Prisma.join(filters, " AND ");
}

/** The hit columns (with the snippet) of the rows of `inner` (id, todoId, projectId, role, createdAt, seq, content). */
export function hitSql(inner: Prisma.Sql, query: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT hit."id", hit."todoId", hit."projectId", p."name" AS "projectName", left(t."content", 200) AS "todoTitle",
           t."status"::text AS "todoStatus", hit."role"::text AS "role", hit."createdAt", hit."seq",
           ${headlineSql(Prisma.sql`hit."content"`, query)} AS "headline"
    FROM (${inner}) hit
    JOIN "Todo" t ON t."id" = hit."todoId"
    JOIN "Project" p ON p."id" = hit."projectId"
    ORDER BY hit."seq" DESC`;
}

export type MessageSearchRow = {
  id: string;
  todoId: string;
  projectId: string;
  projectName: string;
  todoTitle: string;
  todoStatus: TTodoStatus;
  role: TMessageSearchHit["role"];
  createdAt: Date;
  seq: bigint;
  headline: string;
};

/**
 * The one message-search query (the operation runs it, bench/search.ts times it raw): matching
 * messages of the projects the caller may read, newest first (`seq`, unique, so a page boundary
 * never repeats or skips), `limit + 1` rows to tell whether a next page exists. The snippet is
 * computed for those rows only, after the limit.
 */
export function messageSearchSql(caller: Pick<Caller, "userId" | "todoScope">, o: SearchOptions): Prisma.Sql {
  const query = tsquerySql(o.words);
  return hitSql(
    Prisma.sql`
      SELECT m."id", m."todoId", t."projectId", m."role", m."createdAt", m."seq", m."content"
      FROM "Message" m JOIN "Todo" t ON t."id" = m."todoId"
      WHERE ${matchFilters(caller, query, o)}
      ORDER BY m."seq" DESC
      LIMIT ${o.limit + 1}`,
    query,
  );
}

export function toHit(r: MessageSearchRow): TMessageSearchHit {
  return {
    id: r.id,
    messageId: r.id,
    todoId: r.todoId,
    projectId: r.projectId,
    projectName: r.projectName,
    todoTitle: r.todoTitle,
    todoStatus: r.todoStatus,
    role: r.role,
    createdAt: epochMs(r.createdAt),
    snippet: splitSnippet(r.headline),
  };
}

/**
 * todo_searchMessages. A scope the caller cannot read (a hidden project or todo) simply matches
 * nothing: like every list, it does not reveal whether the object exists.
 */
export async function searchMessages(caller: Caller, input: z.output<typeof ZMessageSearchQuery>) {
  const { q, ...rest } = input;
  const words = queryWords(q);
  const rows = await db().$queryRaw<MessageSearchRow[]>(messageSearchSql(caller, { ...rest, words }));
  const more = rows.length > rest.limit;
  const page = rows.slice(0, rest.limit);
  return { items: page.map(toHit), nextCursor: more ? String(page[page.length - 1]!.seq) : null };
}
