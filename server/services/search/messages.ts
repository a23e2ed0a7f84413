import type { z } from "zod";
import type { Caller } from "../../auth/caller.ts";
import { Prisma } from "../../db/generated/client.ts";
import { db, runtime } from "../../runtime.ts";
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

/**
 * The hit columns (with the snippet) of the rows of `inner` (id, todoId, role, createdAt, seq,
 * content, and the columns `extra` names, e.g. Prisma.sql`, hit."matched"`).
 */
export function hitSql(inner: Prisma.Sql, query: Prisma.Sql, extra: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    SELECT hit."id", hit."todoId", t."projectId", p."name" AS "projectName", left(t."content", 200) AS "todoTitle",
           t."status"::text AS "todoStatus", hit."role"::text AS "role", hit."createdAt", hit."seq",
           ${headlineSql(Prisma.sql`hit."content"`, query)} AS "headline"${extra}
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
 * Message search runs up to three statements, each newest first by `seq` (unique, so a page
 * boundary never repeats or skips), each `limit + 1` rows (to tell whether a next page exists),
 * each with the snippet computed for those rows only. The next runs only when the one before
 * found `limit` or fewer rows:
 *
 * 1. `recentSearchSql`: the caller's newest RECENT_WINDOW messages (in scope, before the cursor),
 *    walked down the seq index and tested against the words. Enough when the words are common; if
 *    it finds `limit + 1` matches they are exactly the newest ones. Skipped when the planner's
 *    statistics say the words are too rare to be found `limit + 1` times in that many messages
 *    (`message_search_rare`, migration `search_rare_word_gate`). On PostgreSQL the gate is a
 *    one-row statement of its own, sent first (`rareGateSql`, `gateFirst`): planning plan 1 only
 *    to skip it cost a rare word a fifth of its search. On the embedded database a statement's
 *    fixed cost is higher than that planning, and the server never analyses it (no statistics: the
 *    gate always says "common"), so there the gate is a one-time filter inside plan 1's statement.
 * 2. `windowSearchSql`: the matches among the newest WINDOW_SEQS sequence numbers (before the
 *    cursor): the GIN index intersected with the (todoId, seq) index, so that only the matches in
 *    the window are read from the table. If it finds `limit + 1` they are the newest ones, since
 *    every other match is older than the window.
 * 3. `indexedSearchSql`: every match from the GIN index first (materialised, so the planner cannot
 *    fall back to reading every message of the caller's todos: it misjudges how rare a prefix word
 *    is), then the caller's todos and the scope, then the newest.
 *
 * In 2 and 3 the GIN index looks up the words before the last (whole words) when there are any,
 * and the full query, the last word as a prefix included, is checked on those rows only
 * (`ts_match_vq`, which the planner does not hand to the index): for a prefix GIN collects every
 * message with any word that starts with it, which for a common word ("rev") costs far more than
 * checking the rows the whole words found.
 *
 * Three small statements rather than one with all three stages: planning the one statement cost
 * more than executing the first stage. bench/search.ts runs the same statements on a bare driver.
 */
export const RECENT_WINDOW = 300;
export const WINDOW_SEQS = 65536;

/** The sizes of plans 1 and 2 (smaller in a test, so that a few messages take every plan). */
export type SearchWindows = { recent: number; seqs: number };
const WINDOWS: SearchWindows = { recent: RECENT_WINDOW, seqs: WINDOW_SEQS };

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
function messageFilters(caller: Pick<Caller, "userId" | "todoScope">, o: Partial<SearchOptions>, todo?: Prisma.Sql): Prisma.Sql {
  const filters: Prisma.Sql[] = [todo ? Prisma.sql`m."todoId" = ${todo}` : Prisma.sql`m."todoId" = ANY(${todoIdsSql(caller, o)})`];
  if (o.role) filters.push(Prisma.sql`m."role" = ${o.role}::"MessageRole"`);
  if (o.cursor) filters.push(Prisma.sql`m."seq" < ${BigInt(o.cursor)}`);
  return Prisma.join(filters, " AND ");
}

/**
 * Plan 1 walks the newest messages of every todo at once down the seq index when the caller has
 * more todos in scope than this; with this many or fewer, each todo's newest down its own
 * (todoId, seq) index. The walk down the seq index stops after the window's messages of the
 * caller, which for a light user on a large database are spread over all of it (0.4 s at 1M
 * messages for a user with 8); per todo it reads at most the window per todo.
 */
export const PER_TODO_MAX = 16;

/** The GIN lookup of plans 2 and 3 and the check of the full query (see above), over "Message" `m`. */
function indexedMatch(words: string[], query: Prisma.Sql): Prisma.Sql {
  if (words.length === 1) return Prisma.sql`m."searchVector" @@ (${query})`;
  const whole = tsquerySql(words.slice(0, -1), { prefixLast: false });
  return Prisma.sql`m."searchVector" @@ (${whole}) AND ts_match_vq(m."searchVector", ${query})`;
}

/** The hits of the message ids `ids` returns (at most limit + 2 rows); `flags`: also its columns "matched" and "last". */
function hitsOf(ids: Prisma.Sql, query: Prisma.Sql, flags = false): Prisma.Sql {
  const extra = flags ? Prisma.sql`, found."matched", found."last"` : Prisma.empty;
  return hitSql(
    Prisma.sql`SELECT m."id", m."todoId", m."role", m."createdAt", m."seq", m."content"${extra} FROM (${ids}) found JOIN "Message" m ON m."id" = found."id"`,
    query,
    flags ? Prisma.sql`, hit."matched", hit."last"` : Prisma.empty,
  );
}

/** `message_search_rare` for plan 1 (see above): true when the words cannot fill its page. */
const rareSql = (query: Prisma.Sql, o: SearchOptions, windows: SearchWindows) =>
  Prisma.sql`message_search_rare(${query}, ${o.limit + 1}::int, ${windows.recent}::int)`;

/**
 * How plan 1 finds the window: down the seq index with the gate as a one-time filter
 * ("inline-gate"), down the seq index after the gate ran as its own statement ("gated"), or each
 * todo's newest down its own index, also after the gate ("per-todo", see PER_TODO_MAX).
 */
export type RecentWalk = "inline-gate" | "gated" | "per-todo";

/**
 * Plan 1, its window found as `walk` says. Its rows are the matches ("matched") and, when the
 * window holds all `windows.recent` messages, its oldest message ("last", a match or not), which
 * comes after every match: so a plan 1 that found `limit` or fewer also says whether its window was full. When it was not, the window
 * was every message in scope and the matches are all there are (a light user searching a word
 * common elsewhere never reaches plan 3, which reads every match in the database).
 */
export function recentSearchSql(caller: Pick<Caller, "userId" | "todoScope">, o: SearchOptions, windows = WINDOWS, walk: RecentWalk = "inline-gate"): Prisma.Sql {
  const query = tsquerySql(o.words);
  const newest =
    walk === "per-todo"
      ? Prisma.sql`
          SELECT x."id", x."seq", x."searchVector" FROM unnest(${todoIdsSql(caller, o)}) AS tid("id")
          CROSS JOIN LATERAL (
            SELECT m."id", m."seq", m."searchVector" FROM "Message" m WHERE ${messageFilters(caller, o, Prisma.sql`tid."id"`)}
            ORDER BY m."seq" DESC LIMIT ${windows.recent}
          ) x
          ORDER BY x."seq" DESC LIMIT ${windows.recent}`
      : Prisma.sql`
          SELECT m."id", m."seq", m."searchVector" FROM "Message" m
          WHERE ${messageFilters(caller, o)}${walk === "inline-gate" ? Prisma.sql` AND NOT (SELECT ${rareSql(query, o, windows)})` : Prisma.empty}
          ORDER BY m."seq" DESC LIMIT ${windows.recent}`;
  return hitsOf(
    Prisma.sql`
      SELECT w."id", w."matched", w."last" FROM (
        SELECT r."id", r."seq", r."searchVector" @@ (${query}) AS "matched", row_number() OVER (ORDER BY r."seq" DESC) = ${windows.recent} AS "last"
        FROM (${newest}) r
      ) w
      WHERE w."matched" OR w."last"
      ORDER BY w."seq" DESC LIMIT ${o.limit + 2}`,
    query,
    true,
  );
}

export function windowSearchSql(caller: Pick<Caller, "userId" | "todoScope">, o: SearchOptions, windows = WINDOWS): Prisma.Sql {
  const query = tsquerySql(o.words);
  // The window ends at the cursor, or above the newest message.
  const upper = o.cursor ? Prisma.sql`${BigInt(o.cursor)}::bigint` : Prisma.sql`(SELECT max("seq") + 1 FROM "Message")`;
  return hitsOf(
    Prisma.sql`
      SELECT m."id" FROM "Message" m
      WHERE ${indexedMatch(o.words, query)} AND ${messageFilters(caller, o)} AND m."seq" >= ${upper} - ${windows.seqs}
      ORDER BY m."seq" DESC LIMIT ${o.limit + 1}`,
    query,
  );
}

export function indexedSearchSql(caller: Pick<Caller, "userId" | "todoScope">, o: SearchOptions): Prisma.Sql {
  const query = tsquerySql(o.words);
  return Prisma.sql`
    WITH matched AS MATERIALIZED (SELECT m."id", m."todoId", m."seq", m."role" FROM "Message" m WHERE ${indexedMatch(o.words, query)})
    ${hitsOf(Prisma.sql`SELECT m."id" FROM matched m WHERE ${messageFilters(caller, o)} ORDER BY m."seq" DESC LIMIT ${o.limit + 1}`, query)}`;
}

/**
 * One row: `rare`, whether plan 1 cannot fill the page by the statistics (false when never
 * analysed), and `todos`, how many todos the caller has in scope.
 */
export function rareGateSql(caller: Pick<Caller, "userId" | "todoScope">, o: SearchOptions, windows = WINDOWS): Prisma.Sql {
  return Prisma.sql`SELECT ${rareSql(tsquerySql(o.words), o, windows)} AS "rare", cardinality(${todoIdsSql(caller, o)}) AS "todos"`;
}

/**
 * The three plans above in order, the first skipped for rare words; with `gateFirst` (PostgreSQL)
 * the gate runs first as its own statement. `exec` runs one statement (Prisma in the service, a
 * bare driver in the bench).
 */
export async function runMessageSearch<R>(
  exec: (sql: Prisma.Sql) => Promise<unknown[]>,
  caller: Pick<Caller, "userId" | "todoScope">,
  o: SearchOptions,
  { windows = WINDOWS, gateFirst }: { windows?: SearchWindows; gateFirst: boolean },
): Promise<R[]> {
  const gate = gateFirst ? ((await exec(rareGateSql(caller, o, windows))) as { rare: boolean; todos: number }[])[0] : undefined;
  const todos = gate ? Number(gate.todos) : undefined;
  if (todos === 0) return [];
  if (!gate?.rare) {
    const walk: RecentWalk = todos === undefined ? "inline-gate" : todos <= PER_TODO_MAX ? "per-todo" : "gated";
    const rows = (await exec(recentSearchSql(caller, o, windows, walk))) as (R & { matched: boolean; last: boolean })[];
    const hits = rows.filter((r) => r.matched);
    if (hits.length > o.limit) return hits;
    // The window held fewer messages than it could: it was every message in scope. With no row at
    // all that holds only when the gate ran first (inside plan 1 it may have emptied the window).
    if (!rows.some((r) => r.last) && (rows.length > 0 || gateFirst)) return hits;
  }
  const rows = (await exec(windowSearchSql(caller, o, windows))) as R[];
  if (rows.length > o.limit) return rows;
  return (await exec(indexedSearchSql(caller, o))) as R[];
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
  const rows = await runMessageSearch<MessageSearchRow>((sql) => db().$queryRaw<unknown[]>(sql), caller, { ...rest, words }, { gateFirst: runtime().database === "postgres" });
  const more = rows.length > rest.limit;
  const page = rows.slice(0, rest.limit);
  return { items: page.map(toHit), nextCursor: more ? String(page[page.length - 1]!.seq) : null };
}
