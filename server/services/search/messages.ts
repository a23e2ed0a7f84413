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

/**
 * The WHERE of every message search over `m` (Message) joined with `t` (its Todo): the words
 * (unless `query` is null), the caller's projects, the optional scope and cursor.
 */
export function matchFilters(caller: Pick<Caller, "userId" | "todoScope">, query: Prisma.Sql | null, o: Partial<SearchOptions>): Prisma.Sql {
  const filters: Prisma.Sql[] = [Prisma.sql`t."projectId" IN ${visibleProjectIdsSql(caller)}`];
  if (query) filters.unshift(Prisma.sql`m."searchVector" @@ (${query})`);
  if (caller.todoScope) filters.push(Prisma.sql`m."todoId" = ${caller.todoScope}`);
  if (o.projectId) filters.push(Prisma.sql`t."projectId" = ${o.projectId}`);
  if (o.todoId) filters.push(Prisma.sql`m."todoId" = ${o.todoId}`);
  if (o.role) filters.push(Prisma.sql`m."role" = ${o.role}::"MessageRole"`);
  if (o.cursor) filters.push(Prisma.sql`m."seq" < ${BigInt(o.cursor)}`);
  return Prisma.join(filters, " AND ");
}

/** The hit columns (with the snippet) of the rows of `inner` (id, todoId, role, createdAt, seq, content). */
export function hitSql(inner: Prisma.Sql, query: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT hit."id", hit."todoId", t."projectId", p."name" AS "projectName", left(t."content", 200) AS "todoTitle",
           t."status"::text AS "todoStatus", hit."role"::text AS "role", hit."createdAt", hit."seq",
           ${headlineSql(Prisma.sql`hit."content"`, query)} AS "headline"
    FROM (${inner}) hit
    JOIN "Todo" t ON t."id" = hit."todoId"
    JOIN "Project" p ON p."id" = t."projectId"
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
 * Message search runs one of two plans, both newest first by `seq` (unique, so a page boundary
 * never repeats or skips), both `limit + 1` rows (to tell whether a next page exists), both with
 * the snippet computed for those rows only:
 *
 * 1. `recentSearchSql`: the caller's newest RECENT_WINDOW messages (in scope, before the cursor),
 *    walked down the `seq` index, tested against the words. Fast when the words are common. If it
 *    finds `limit + 1` matches they are exactly the newest ones, and the search is done.
 * 2. `indexedSearchSql`: otherwise, every match from the GIN index first (materialised, so the
 *    planner cannot fall back to reading every message of the caller's todos: it misjudges how rare
 *    a prefix word is), then the caller's projects and the scope, then the newest.
 *
 * `runMessageSearch` is that choice; bench/search.ts runs it with a raw driver as the baseline.
 */
export const RECENT_WINDOW = 1000;

/**
 * The caller's todos in scope as an array computed once (an InitPlan): a filter on Message alone,
 * so the planner can walk Message's own indexes rather than read every message of every todo.
 */
function todoIdsSql(caller: Pick<Caller, "userId" | "todoScope">, o: Partial<SearchOptions>): Prisma.Sql {
  const filters: Prisma.Sql[] = [Prisma.sql`t."projectId" IN ${visibleProjectIdsSql(caller)}`];
  if (caller.todoScope) filters.push(Prisma.sql`t."id" = ${caller.todoScope}`);
  if (o.projectId) filters.push(Prisma.sql`t."projectId" = ${o.projectId}`);
  if (o.todoId) filters.push(Prisma.sql`t."id" = ${o.todoId}`);
  return Prisma.sql`ARRAY(SELECT t."id" FROM "Todo" t WHERE ${Prisma.join(filters, " AND ")})`;
}

/** Message-only filters: the caller's todos in scope, the role, the cursor. */
function messageFilters(caller: Pick<Caller, "userId" | "todoScope">, o: Partial<SearchOptions>): Prisma.Sql {
  const filters: Prisma.Sql[] = [Prisma.sql`m."todoId" = ANY(${todoIdsSql(caller, o)})`];
  if (o.role) filters.push(Prisma.sql`m."role" = ${o.role}::"MessageRole"`);
  if (o.cursor) filters.push(Prisma.sql`m."seq" < ${BigInt(o.cursor)}`);
  return Prisma.join(filters, " AND ");
}

export function recentSearchSql(caller: Pick<Caller, "userId" | "todoScope">, o: SearchOptions): Prisma.Sql {
  const query = tsquerySql(o.words);
  return hitSql(
    Prisma.sql`
      SELECT w."id", w."todoId", w."role", w."createdAt", w."seq", w."content"
      FROM (
        SELECT m."id", m."todoId", m."role", m."createdAt", m."seq", m."content", m."searchVector" FROM "Message" m
        WHERE ${messageFilters(caller, o)}
        ORDER BY m."seq" DESC LIMIT ${RECENT_WINDOW}
      ) w
      WHERE w."searchVector" @@ (${query})
      ORDER BY w."seq" DESC
      LIMIT ${o.limit + 1}`,
    query,
  );
}

export function indexedSearchSql(caller: Pick<Caller, "userId" | "todoScope">, o: SearchOptions): Prisma.Sql {
  const query = tsquerySql(o.words);
  return Prisma.sql`
    WITH matched AS MATERIALIZED (SELECT "id", "todoId", "seq", "role" FROM "Message" WHERE "searchVector" @@ (${query}))
    ${hitSql(
      Prisma.sql`
        SELECT m."id", m."todoId", m."role", m."createdAt", m."seq", m."content"
        FROM (SELECT m."id", m."seq" FROM matched m WHERE ${messageFilters(caller, o)} ORDER BY m."seq" DESC LIMIT ${o.limit + 1}) top
        JOIN "Message" m ON m."id" = top."id"`,
      query,
    )}`;
}

/** The two plans above, in order; `exec` runs one (Prisma in the service, a bare driver in the bench). */
export async function runMessageSearch<R>(exec: (sql: Prisma.Sql) => Promise<R[]>, caller: Pick<Caller, "userId" | "todoScope">, o: SearchOptions): Promise<R[]> {
  const recent = await exec(recentSearchSql(caller, o));
  if (recent.length > o.limit) return recent;
  return exec(indexedSearchSql(caller, o));
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
  const rows = await runMessageSearch((sql) => db().$queryRaw<MessageSearchRow[]>(sql), caller, { ...rest, words });
  const more = rows.length > rest.limit;
  const page = rows.slice(0, rest.limit);
  return { items: page.map(toHit), nextCursor: more ? String(page[page.length - 1]!.seq) : null };
}
