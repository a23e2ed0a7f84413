// user_exportData's memory (issue 15): the peak JS heap and RSS while a large account's export
// streams through the real pipeline, against a small account's export in the same run (the
// baseline: flat memory means the two peaks are alike), and against reading the large account's
// messages whole (what an export without paging would hold). One process, one database; the
// export body is read chunk by chunk and dropped, as a client saving it to disk would.
//
//   node --expose-gc --import tsx bench/export.ts [--messages 100000] [--pg]
//
// Peaks are sampled every 5 ms and reported above the level measured (after a GC) just before
// each run. The live heap peak is read right after a full GC, every 100 ms and at probes (every
// MB of export read; after the whole read and after its serialization): what the run still holds,
// without the garbage V8 has not collected yet (the plain heap peak includes that garbage, and
// grows with the work done, streamed or not). PGlite runs in this process, so RSS includes the embedded database's own memory; the
// heap figures are the JavaScript heap (where an unpaged export would pile up).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { setLogLevel } from "../server/log.ts";
import { startTestApp } from "../server/testing/app.ts";

const { values: opts } = parseArgs({
  options: {
    messages: { type: "string", default: "100000" },
    small: { type: "string", default: "100" },
    pg: { type: "boolean", default: false },
  },
});
const LARGE = Number(opts.messages);
const SMALL = Number(opts.small);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc --import tsx bench/export.ts");

setLogLevel("silent");
const app = await startTestApp({ database: opts.pg ? "postgres" : "pglite" });
const p = app.rt.prisma;

/** An account with `messages` messages over todos of 100 messages, each ~300 characters. */
async function seed(messages: number) {
  const user = await app.newUser();
  const project = await p.project.create({ data: { ownerId: user.userId, name: `Bench ${messages}` } });
  const todos = Math.max(1, Math.ceil(messages / 100));
  const todoIds: string[] = [];
  for (let t = 0; t < todos; t += 500) {
    const batch = Array.from({ length: Math.min(500, todos - t) }, (_, i) => ({ id: `bt${messages}x${t + i}`, projectId: project.id, userId: user.userId, content: `Todo ${t + i}` }));
    await p.todo.createMany({ data: batch });
    todoIds.push(...batch.map((b) => b.id));
  }
  const text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ".repeat(3).slice(0, 300);
  for (let m = 0; m < messages; m += 2000) {
    const batch = Array.from({ length: Math.min(2000, messages - m) }, (_, i) => {
      const n = m + i;
      return { todoId: todoIds[Math.floor(n / 100)]!, role: n % 2 ? ("assistant" as const) : ("user" as const), content: `${n}: ${text}` };
    });
    await p.message.createMany({ data: batch });
  }
  return user;
}

type Peak = { ms: number; bytes: number; liveHeapPeakMB: number; heapPeakMB: number; rssPeakMB: number; heapBaseMB: number; rssBaseMB: number };

async function measure(run: (probe: () => void) => Promise<number>): Promise<Peak> {
  gc!();
  await new Promise((r) => setTimeout(r, 50));
  gc!();
  const base = process.memoryUsage();
  let heap = base.heapUsed;
  let live = base.heapUsed;
  let rss = base.rss;
  let ticks = 0;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
    // Every 100 ms a full GC first: what is still reachable then is what the export holds.
    if (++ticks % 20 === 0) {
      gc!();
      live = Math.max(live, process.memoryUsage().heapUsed);
    }
  }, 5);
  const t0 = performance.now();
  // The run calls probe() where it holds the most (every MB streamed; after the whole read).
  const probe = () => {
    gc!();
    live = Math.max(live, process.memoryUsage().heapUsed);
  };
  const bytes = await run(probe);
  const ms = performance.now() - t0;
  clearInterval(timer);
  const m = process.memoryUsage();
  heap = Math.max(heap, m.heapUsed);
  rss = Math.max(rss, m.rss);
  const MB = 1024 * 1024;
  return { ms: Math.round(ms), bytes, liveHeapPeakMB: +((live - base.heapUsed) / MB).toFixed(1), heapPeakMB: +((heap - base.heapUsed) / MB).toFixed(1), rssPeakMB: +((rss - base.rss) / MB).toFixed(1), heapBaseMB: +(base.heapUsed / MB).toFixed(1), rssBaseMB: +(base.rss / MB).toFixed(1) };
}

/** The export through the pipeline, read chunk by chunk and dropped; returns its size in bytes. */
function streamed(apiKey: string) {
  return async (probe: () => void) => {
    const res = await app.handle("api", new Request("http://app.test/api/v1/users/export", { headers: { "x-api-key": apiKey } }));
    if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    const reader = res.body!.getReader();
    let bytes = 0;
    let tail = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (Math.floor((bytes + value.byteLength) / 1048576) > Math.floor(bytes / 1048576)) probe();
      bytes += value.byteLength;
      tail = Buffer.from(value.subarray(Math.max(0, value.byteLength - 1))).toString();
    }
    if (tail !== "}") throw new Error("the export did not end as a JSON object");
    return bytes;
  };
}

/** What an export without paging would do: the messages read whole, then serialized. */
function whole(userId: string) {
  return async (probe: () => void) => {
    const rows = await p.message.findMany({ where: { todo: { project: { ownerId: userId } } }, orderBy: { id: "asc" } });
    probe();
    const text = JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    probe();
    return Buffer.byteLength(text);
  };
}

const s0 = performance.now();
const small = await seed(SMALL);
const large = await seed(LARGE);
const seedSeconds = ((performance.now() - s0) / 1000).toFixed(1);
const counted = await p.message.count({ where: { todo: { project: { ownerId: large.userId } } } });
if (counted !== LARGE) throw new Error(`seeded ${counted} of ${LARGE} messages`);

// Warm-up (query plans, code paths), then small, large, small again, large again: drift hits both.
await measure(streamed(small.apiKey));
const runs: { name: string; peak: Peak }[] = [];
for (let round = 0; round < 2; round++) {
  runs.push({ name: `small (${SMALL} messages), streamed`, peak: await measure(streamed(small.apiKey)) });
  runs.push({ name: `large (${LARGE} messages), streamed`, peak: await measure(streamed(large.apiKey)) });
}
runs.push({ name: `large (${LARGE} messages), read whole (no paging)`, peak: await measure(whole(large.userId)) });

console.log(`database: ${opts.pg ? "PostgreSQL" : "PGlite (embedded, in process)"}; seeded ${SMALL} + ${LARGE} messages in ${seedSeconds} s`);
console.log("run | export MB | seconds | live heap peak (after GC) above base MB | heap peak (garbage included) MB | RSS peak above base MB");
for (const r of runs) console.log(`${r.name} | ${(r.peak.bytes / 1048576).toFixed(1)} | ${(r.peak.ms / 1000).toFixed(1)} | ${r.peak.liveHeapPeakMB} | ${r.peak.heapPeakMB} | ${r.peak.rssPeakMB}`);

const dir = path.join(import.meta.dirname, "results");
await mkdir(dir, { recursive: true });
const file = path.join(dir, `export-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
await writeFile(file, JSON.stringify({ database: opts.pg ? "postgres" : "pglite", small: SMALL, large: LARGE, runs }, null, 2));
console.log(`wrote ${path.relative(process.cwd(), file)}`);
await app.close();
