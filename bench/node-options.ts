// npx tsx bench/node-options.ts [--pg] [--concurrency 8,50] [--requests 3000] [--rounds 6]
//
// What the server's Node options (scripts/server-node.mjs, SERVER_NODE_OPTIONS) do to the CPU of a
// point read: two production servers on the same database, one started with the options and one
// without, serve project_get (GET /api/v1/projects/{projectId}, API key) in interleaved rounds
// (A B, B A, …), so both share the machine's drift. Server CPU per request from /proc. Prints
// the per-round ratio with ÷ without and their median, per concurrency, and (both servers run
// with --trace-gc) the collections of the measured requests: their pause time per request, how
// many, and the median and longest pause. See bench/README.md "GC".
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { keepAliveAgent, median, runLoad } from "./lib/load.ts";
import { databaseOptions, positiveInt } from "./lib/args.ts";
import { createPgDatabase, ensureBuild, startBenchApp } from "./lib/setup.ts";
import { cpuMs, exitCleanup } from "./lib/processes.ts";
import { SERVER_NODE_OPTIONS } from "../scripts/server-node.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values: args } = parseArgs({
  options: {
    ...databaseOptions,
    concurrency: { type: "string", default: "8,50" },
    requests: { type: "string", default: "3000" },
    warmup: { type: "string", default: "3000" },
    rounds: { type: "string", default: "6" },
  },
  strict: true,
});
const levels = args.concurrency.split(",").map((c) => positiveInt("concurrency", c.trim()));
const REQUESTS = positiveInt("requests", args.requests);
const WARMUP = positiveInt("warmup", args.warmup);
const ROUNDS = positiveInt("rounds", args.rounds);
const exit = exitCleanup("the servers");

/** A server under test; `gc` collects the pauses of its --trace-gc lines while `measuring`. */
type Server = { name: string; url: string; apiKey: string; pid: number | undefined; gc: { measuring: boolean; pauses: number[] }; requests: number };

/** A --trace-gc line's pause: `[pid:0x…]  1234 ms: Scavenge 40.1 (50.2) -> 30.3 (52.2) MB, 3.21 / 0.00 ms  (…)`. */
const GC_LINE = /\b(?:Scavenge|Mark-Compact|Mark-Sweep)\b.*?, ([\d.]+) \/ [\d.]+ ms/i;

async function server(name: string, options: readonly string[], databaseUrl: string | undefined): Promise<Server> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `todo-bench-node-options-${name}-`));
  exit.cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const gc = { measuring: false, pauses: [] as number[] };
  const onLine = (line: string) => {
    const m = gc.measuring ? GC_LINE.exec(line) : null;
    if (m) gc.pauses.push(Number(m[1]));
  };
  const app = await startBenchApp({ root: ROOT, dataDir, databaseUrl, email: `node-options-${name}-${Date.now()}@bench.invalid`, serverNodeOptions: [...options, "--trace-gc"], onLine });
  const res = await fetch(`${app.base}/api/v1/projects`, { method: "POST", headers: { "x-api-key": app.apiKey, "content-type": "application/json" }, body: JSON.stringify({ name: "Bench project" }) });
  const { id } = (await res.json()) as { id: string };
  return { name, url: `${app.base}/api/v1/projects/${id}`, apiKey: app.apiKey, pid: app.child.proc.pid, gc, requests: 0 };
}

try {
  await ensureBuild(ROOT);
  const databaseUrl = args.pg ? await createPgDatabase(args["pg-url"], "todo_bench_node_options", exit.cleanups) : undefined;
  const withOptions = await server("with", SERVER_NODE_OPTIONS, databaseUrl);
  const without = await server("without", [], databaseUrl);
  console.log(`project_get CPU per request, with \`${SERVER_NODE_OPTIONS.join(" ") || "(none)"}\` against without, ${ROUNDS} interleaved rounds of ${REQUESTS} requests (${args.pg ? "postgres" : "embedded"}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${os.cpus().length} cores)`);
  for (const concurrency of levels) {
    const agents = new Map([withOptions, without].map((s) => [s, keepAliveAgent(concurrency)]));
    const load = (s: Server, requests: number) =>
      runLoad({ url: s.url, headers: { "x-api-key": s.apiKey }, concurrency, requests, maxSeconds: 60, agent: agents.get(s)!, check: (r) => (r.status === 200 ? null : "expected status 200") });
    for (const s of [withOptions, without]) await load(s, WARMUP);
    const cpu: Record<string, number[]> = { with: [], without: [] };
    for (const s of [withOptions, without]) {
      s.gc.pauses = [];
      s.requests = 0;
    }
    for (let round = 0; round < ROUNDS; round++)
      for (const s of round % 2 ? [without, withOptions] : [withOptions, without]) {
        const before = cpuMs(s.pid)!;
        s.gc.measuring = true;
        const out = await load(s, REQUESTS);
        s.gc.measuring = false;
        s.requests += out.latenciesMs.length;
        cpu[s.name]!.push((cpuMs(s.pid)! - before) / out.latenciesMs.length);
      }
    const ratios = cpu.with!.map((w, i) => w / cpu.without![i]!);
    console.log(
      `@${concurrency}: with ${median(cpu.with!).toFixed(3)} ms, without ${median(cpu.without!).toFixed(3)} ms per request (medians); with ÷ without by round ${ratios.map((r) => r.toFixed(2)).join(", ")}: median ${median(ratios).toFixed(2)}`,
    );
    const gc = (s: Server) =>
      `${s.name} ${((s.gc.pauses.reduce((a, b) => a + b, 0) / s.requests) * 1000).toFixed(0)} µs per request in ${s.gc.pauses.length} pauses (median ${median(s.gc.pauses).toFixed(1)} ms, longest ${Math.max(0, ...s.gc.pauses).toFixed(1)} ms)`;
    console.log(`     GC: ${gc(withOptions)}; ${gc(without)}`);
  }
} finally {
  await exit.cleanup();
}
