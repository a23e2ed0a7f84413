// Message search (todo_searchMessages), top 20, over many messages seeded in bulk: p50/p95 of the
// operation through the in-process API pipeline (credential lookup, zod, the access filter, the
// query, snippets, serialisation: server/testing/app.ts) against the very same SQL sent raw to the
// same database by its bare driver (pg, or PGlite's own handle), alternating, in the same run.
//
//   npx tsx bench/search.ts                          # embedded PGlite, 100,000 messages
//   npx tsx bench/search.ts --pg                     # a fresh PostgreSQL database (TEST_PG_ADMIN_URL)
//   npx tsx bench/search.ts --pg --messages 1000000 --rounds 5
//   npx tsx bench/search.ts --pg --messages 1000000 --reuse   # seed once, then copy (seededTemplate)
//
// The HTTP/Next layer is not in either path (bench/project-get.ts measures that overhead).
import { readFileSync } from "node:fs";
import pg from "pg";
import { setLogLevel } from "../server/log.ts";
import { resolveApiKey } from "../server/auth/resolve.ts";
import { enableCredentialCache } from "../server/auth/credential-cache.ts";
import { indexedSearchSql, recentSearchSql, runMessageSearch, windowSearchSql } from "../server/services/search/messages.ts";
import { queryWords } from "../server/services/search/query.ts";
import { startTestApp } from "../server/testing/app.ts";
import { createTestUser, TEST_PG_ADMIN_URL } from "../server/testing/runtime.ts";
import { createKeyForUser } from "../server/services/api-keys/api-keys.ts";
import { openDatabase } from "../server/db/open.ts";
import { visibleProjectsWhere } from "../server/services/access.ts";
import type { PrismaClient } from "../server/db/generated/client.ts";
import { percentile } from "./lib/load.ts";

const args = process.argv.slice(2);
const flag = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const usePg = args.includes("--pg");
const MESSAGES = flag("messages", 100_000);
const ROUNDS = flag("rounds", 3);
const PER_QUERY = flag("repeat", 15);

// A vocabulary with a few very common words, a middle and a long tail, so queries hit from
// hundreds of thousands of rows down to a handful.
const COMMON = ["the", "update", "please", "check", "today"];
const MIDDLE = ["deploy", "deployment", "invoice", "customer", "database", "migration", "timeout", "error", "release", "review", "kubernetes", "cluster", "payment", "refund", "schedule", "meeting", "report", "design", "feature", "bug"];
const RARE = Array.from({ length: 400 }, (_, i) => `term${i}x`);
const QUERIES = ["deploy", "kubernetes cluster", "invoice refund", "migra", "error timeout", "term7x", "customer payment", "the", "update dep", "term123x review"];

/** CPU time (user + system, ms) of the local process `pid` so far; undefined when /proc does not show it. */
function backendCpu(pid: number): (() => number) | undefined {
  const read = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  try {
    read();
    return read;
  } catch {
    return undefined;
  }
}

const ME_EMAIL = "bench-search-caller@bench.example.com";
const OTHER_EMAIL = "bench-search-stranger@bench.example.com";

/**
 * The bench's data, through `p`: 12 projects (the caller owns 2, has 1 shared and 1 through a
 * team; 8 are the stranger's), 240 todos, MESSAGES messages seeded in bulk, then ANALYZE.
 */
async function seed(p: PrismaClient): Promise<void> {
  const me = await createTestUser(p, { email: ME_EMAIL });
  const other = await createTestUser(p, { email: OTHER_EMAIL });
  const projects: string[] = [];
  for (let i = 0; i < 12; i++) projects.push((await p.project.create({ data: { ownerId: i < 2 ? me.id : other.id, name: `P${i}` } })).id);
  await p.projectShare.create({ data: { projectId: projects[2]!, userId: me.id, role: "viewer" } });
  const team = await p.team.create({ data: { ownerId: other.id, name: "T", projectId: projects[3]! } });
  await p.teamMember.create({ data: { teamId: team.id, userId: me.id, role: "member" } });
  const todos: string[] = [];
  for (let i = 0; i < 240; i++) todos.push((await p.todo.create({ data: { projectId: projects[i % 12]!, userId: i % 12 < 2 ? me.id : other.id, content: `Todo ${i}` } })).id);

  // Bulk seed in SQL: each message 12–30 words drawn from the vocabulary by a hash of its number.
  const vocab = (name: string, words: string[]) => `${name} AS (SELECT ARRAY[${words.map((w) => `'${w}'`).join(",")}]::text[] AS w)`;
  const batch = 50_000;
  for (let from = 0; from < MESSAGES; from += batch) {
    const to = Math.min(MESSAGES, from + batch) - 1;
    await p.$executeRawUnsafe(`
      WITH ${vocab("c", COMMON)}, ${vocab("m", MIDDLE)}, ${vocab("r", RARE)}, t AS (SELECT ARRAY[${todos.map((id) => `'${id}'`).join(",")}]::text[] AS ids)
      INSERT INTO "Message" ("id", "todoId", "role", "content", "state", "createdAt", "updatedAt")
      SELECT 'bm' || g, t.ids[1 + (g % ${todos.length})], (CASE WHEN g % 2 = 0 THEN 'user' ELSE 'assistant' END)::"MessageRole",
             (SELECT string_agg(CASE WHEN (h % 10) < 5 THEN c.w[1 + (h / 10) % ${COMMON.length}]
                                     WHEN (h % 10) < 9 THEN m.w[1 + (h / 10) % ${MIDDLE.length}]
                                     ELSE r.w[1 + (h / 10) % ${RARE.length}] END, ' ')
              FROM (SELECT abs(hashint4(g * 31 + k)) AS h FROM generate_series(1, 12 + g % 19) k) words),
             'DONE', now() - (${MESSAGES} - g) * interval '1 second', now()
      FROM generate_series(${from}, ${to}) g, c, m, r, t`);
  }
  await p.$executeRawUnsafe(`ANALYZE "Message"`);
}

/**
 * With `--reuse` (PostgreSQL only), the seeded database is kept as the template
 * `bench_search_seed_<messages>` and every later run starts from a copy of it (a file copy,
 * seconds; migrations newer than the template are applied to the copy). `--reseed` makes it anew.
 */
async function seededTemplate(): Promise<string> {
  const name = `bench_search_seed_${MESSAGES}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    if (args.includes("--reseed")) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    if ((await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount) return name;
    // Seeded under another name and renamed when complete, so an interrupted seed is never reused.
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${building}"`);
    const url = new URL(TEST_PG_ADMIN_URL);
    url.pathname = `/${building}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    try {
      await seed(database.prisma);
    } finally {
      await database.close();
    }
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  setLogLevel("silent");
  // As the production server (server/main.ts) does: a known key is not looked up again per request.
  enableCredentialCache();
  const started = Date.now();
  const reuse = usePg && args.includes("--reuse");
  const seedStart = Date.now();
  const template = reuse ? await seededTemplate() : undefined;
  const app = await startTestApp({ database: usePg ? "postgres" : "pglite", postgresTemplate: template });
  const p = app.rt.prisma;
  if (!template) await seed(p);
  const seedMs = Date.now() - seedStart;
  const me = await p.user.findUniqueOrThrow({ where: { email: ME_EMAIL } });
  const apiKey = (await createKeyForUser(me.id, "bench")).key;
  const caller = (await resolveApiKey(apiKey))!;
  const readable = (await p.project.findMany({ where: visibleProjectsWhere(caller), select: { id: true } })).map((x) => x.id);

  // The raw driver: the same database, no Prisma, no pipeline. With a local PostgreSQL server, also
  // the CPU time its backend spent on the raw statements: unlike wall time, it hardly depends on
  // what else the machine runs (10 ms ticks from /proc, so only the mean over many runs means much).
  let backendCpuMs: (() => number) | undefined;
  let raw: (text: string, values: unknown[]) => Promise<unknown[]>;
  let closeRaw = async () => {};
  if (usePg) {
    const client = new pg.Client({ connectionString: app.rt.databaseUrl });
    await client.connect();
    raw = async (text, values) => (await client.query(text, values)).rows;
    backendCpuMs = backendCpu(Number((await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid));
    closeRaw = () => client.end();
  } else {
    const db = app.rt.pglite!;
    raw = async (text, values) => (await db.query(text, values)).rows;
  }

  if (args.includes("--explain")) {
    for (const q of QUERIES) {
      for (const [name, build] of [["recent", recentSearchSql], ["window", windowSearchSql], ["indexed", indexedSearchSql]] as const) {
        const sql = build(caller, { words: queryWords(q), limit: 20 });
        const plan = (await raw(`EXPLAIN (ANALYZE, COSTS OFF) ${sql.text}`, sql.values)) as Record<string, string>[];
        console.log(`-- ${name}: ${q}\n${plan.map((row) => Object.values(row)[0]).join("\n")}`);
      }
    }
  }
  const rawMs: number[] = [];
  const apiMs: number[] = [];
  const perQuery: Record<string, { raw: number[]; api: number[]; hits: number; cpuMs: number }> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of QUERIES) {
      const opts = { words: queryWords(q), limit: 20 };
      const slot = (perQuery[q] ??= { raw: [], api: [], hits: 0, cpuMs: 0 });
      for (let i = 0; i < PER_QUERY; i++) {
        const cpu0 = backendCpuMs?.() ?? 0;
        let t = performance.now();
        const rows = await runMessageSearch((sql) => raw(sql.text, sql.values), caller, opts, { gateFirst: usePg });
        const r = performance.now() - t;
        const cpu = (backendCpuMs?.() ?? 0) - cpu0;
        t = performance.now();
        const res = await app.call("GET", "/messages/search", { key: apiKey, query: { q, limit: "20" } });
        const a = performance.now() - t;
        if (res.status !== 200) throw new Error(`search answered ${res.status}: ${res.text}`);
        const items = (res.json as { items: unknown[] }).items.length;
        if (items !== Math.min(rows.length, 20)) throw new Error(`"${q}": API ${items} items, raw ${rows.length} rows`);
        // Round 0 warms both paths up; it is not counted.
        if (round === 0) continue;
        rawMs.push(r);
        apiMs.push(a);
        slot.raw.push(r);
        slot.cpuMs += cpu;
        slot.api.push(a);
        slot.hits = items;
      }
    }
  }
  const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
  const fmt = (x: number) => x.toFixed(2);
  const visible = await p.message.count({ where: { todo: { projectId: { in: readable } } } });
  console.log(`database: ${usePg ? "PostgreSQL" : "embedded PGlite"}; messages: ${MESSAGES.toLocaleString("en")} (${visible.toLocaleString("en")} readable by the caller, in ${readable.length} of 12 projects); ${template ? `copied from ${template}` : "seeded"} in ${(seedMs / 1000).toFixed(1)} s`);
  console.log(`queries: ${QUERIES.length} × ${PER_QUERY} × ${ROUNDS - 1} measured rounds (1 warm-up round), top 20, raw and API alternating`);
  console.log(`query                      hits  raw p50  raw p95  api p50  api p95${backendCpuMs ? "  db cpu/q" : ""}`);
  for (const [q, s] of Object.entries(perQuery)) {
    const r = sorted(s.raw);
    const a = sorted(s.api);
    console.log(`${q.padEnd(26)} ${String(s.hits).padStart(4)} ${fmt(percentile(r, 50)).padStart(8)} ${fmt(percentile(r, 95)).padStart(8)} ${fmt(percentile(a, 50)).padStart(8)} ${fmt(percentile(a, 95)).padStart(8)}${backendCpuMs ? fmt(s.cpuMs / s.raw.length).padStart(10) : ""}`);
  }
  const r = sorted(rawMs);
  const a = sorted(apiMs);
  const rawP95 = percentile(r, 95);
  const apiP95 = percentile(a, 95);
  console.log(`ALL  raw p50 ${fmt(percentile(r, 50))} ms  p95 ${fmt(rawP95)} ms | api p50 ${fmt(percentile(a, 50))} ms  p95 ${fmt(apiP95)} ms | api/raw p95 ratio ${(apiP95 / rawP95).toFixed(2)} (target ≤ 1.3; PostgreSQL target api p95 < 15 ms)`);
  if (backendCpuMs) {
    const cpu = Object.values(perQuery).reduce((sum, x) => sum + x.cpuMs, 0);
    console.log(`db cpu (the raw statements' PostgreSQL backend, user + system): ${fmt(cpu / rawMs.length)} ms per search on average`);
  }
  await lightUser(p, app, raw);
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await closeRaw();
  await app.close();
}

/**
 * A light user (one todo, 8 messages, 3 with "deploy") searching words common in everyone else's
 * messages: the case that once read every match in the database (plan 3). Not in the p95 above.
 */
async function lightUser(p: PrismaClient, app: Awaited<ReturnType<typeof startTestApp>>, raw: (text: string, values: unknown[]) => Promise<unknown[]>): Promise<void> {
  const user = await createTestUser(p);
  const project = await p.project.create({ data: { ownerId: user.id, name: "Light" } });
  const todo = await p.todo.create({ data: { projectId: project.id, userId: user.id, content: "Light" } });
  for (let i = 0; i < 8; i++) await p.message.create({ data: { todoId: todo.id, role: "user", content: i % 3 === 0 ? `deploy the thing ${i}` : `a note ${i}` } });
  const key = (await createKeyForUser(user.id, "bench-light")).key;
  const caller = (await resolveApiKey(key))!;
  for (const q of ["deploy", "kubernetes cluster"]) {
    const opts = { words: queryWords(q), limit: 20 };
    const rawMs: number[] = [];
    const apiMs: number[] = [];
    let hits = 0;
    for (let i = 0; i < 11; i++) {
      let t = performance.now();
      await runMessageSearch((sql) => raw(sql.text, sql.values), caller, opts, { gateFirst: usePg });
      const r = performance.now() - t;
      t = performance.now();
      const res = await app.call("GET", "/messages/search", { key, query: { q, limit: "20" } });
      const a = performance.now() - t;
      if (res.status !== 200) throw new Error(`light search answered ${res.status}: ${res.text}`);
      hits = (res.json as { items: unknown[] }).items.length;
      if (i === 0) continue;
      rawMs.push(r);
      apiMs.push(a);
    }
    const med = (xs: number[]) => percentile([...xs].sort((x, y) => x - y), 50).toFixed(2);
    console.log(`light user (8 messages): "${q}" ${hits} hits, raw p50 ${med(rawMs)} ms, api p50 ${med(apiMs)} ms`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
