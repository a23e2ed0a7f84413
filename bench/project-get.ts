// npm run bench [-- --pg] [--concurrency 8] [--requests 3000] [--warmup 300] [--initial-warmup 2000] [--rounds 2] [--max-seconds 30] [--cpu-prof]
//
// Throughput and p99 latency of GET /api/v1/projects/{projectId} (operation project_get, API key
// in x-api-key) served by the real production server, against a baseline in the same run: a plain
// node:http server doing the same database reads (bench/raw-server.ts). Phases alternate
// baseline/app/baseline/app… and the median of the rounds is reported. See bench/README.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { keepAliveAgent, median, runLoad, summarize, type Reply, type Stats } from "./lib/load.ts";
import { createPgDatabase, ensureBuild, startBenchApp } from "./lib/setup.ts";
import { cpuMs, exitCleanup, start, type Child } from "./lib/processes.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TARGET_RATIO = 0.5;

const { values: args } = parseArgs({
  options: {
    pg: { type: "boolean", default: false },
    "pg-url": { type: "string", default: process.env.BENCH_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
    concurrency: { type: "string", default: "8" },
    requests: { type: "string", default: "3000" },
    warmup: { type: "string", default: "300" },
    "initial-warmup": { type: "string", default: "2000" },
    rounds: { type: "string", default: "2" },
    "max-seconds": { type: "string", default: "30" },
    "cpu-prof": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  console.log("npm run bench -- [--pg] [--pg-url postgresql://…/postgres] [--concurrency 8] [--requests 3000] [--warmup 300] [--initial-warmup 2000] [--rounds 2] [--max-seconds 30] [--cpu-prof]");
  process.exit(0);
}
function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive integer (got ${value})`);
    process.exit(2);
  }
  return n;
}
const opts = {
  mode: args.pg ? ("postgres" as const) : ("embedded" as const),
  concurrency: positive("concurrency", args.concurrency),
  requests: positive("requests", args.requests),
  warmup: positive("warmup", args.warmup),
  initialWarmup: positive("initial-warmup", args["initial-warmup"]),
  rounds: positive("rounds", args.rounds),
  maxSeconds: positive("max-seconds", args["max-seconds"]),
};
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const resultsDir = path.join(ROOT, "bench", "results");
const profDir = args["cpu-prof"] ? path.join(resultsDir, `cpu-prof-${stamp}`) : undefined;

// ── Everything to undo on the way out, in reverse order ──
const exit = exitCleanup("the servers");
const { cleanups, cleanup } = exit;

type Target = { name: "app" | "baseline"; url: string; apiKey: string; projectId: string };

function checkProject(projectId: string) {
  return (r: Reply): string | null => {
    if (r.status !== 200) return "expected status 200";
    try {
      const body = JSON.parse(r.body) as { id?: unknown; role?: unknown };
      if (body.id !== projectId) return `expected project ${projectId}`;
      if (body.role !== "owner") return "expected role owner";
    } catch {
      return "response is not JSON";
    }
    return null;
  };
}


// One directory per server: node writes a profile per thread (tsx's loader runs in its own), the largest is the main one.
const nodeArgs = (name: string) => (profDir ? ["--cpu-prof", `--cpu-prof-dir=${path.join(profDir, name)}`] : []);

async function startApp(dataDir: string, databaseUrl: string | undefined): Promise<Target & { child: Child }> {
  const { base: url, apiKey, child } = await startBenchApp({ root: ROOT, dataDir, databaseUrl, email: "bench@bench.invalid", nodeArgs: nodeArgs("app") });

  const res = await fetch(`${url}/api/v1/projects`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": apiKey },
    body: JSON.stringify({ name: "Bench project", description: "project_get benchmark" }),
  });
  const project = (await res.json()) as { id?: string };
  if (res.status !== 200 || !project.id) throw new Error(`POST /api/v1/projects answered ${res.status}: ${JSON.stringify(project)}`);
  return { name: "app", url: `${url}/api/v1/projects/${encodeURIComponent(project.id)}`, apiKey: apiKey, projectId: project.id, child };
}

async function startBaseline(pgliteDir: string, databaseUrl: string | undefined): Promise<Target & { child: Child }> {
  let ready: (v: { port: number; apiKey: string; projectId: string }) => void;
  const announced = new Promise<{ port: number; apiKey: string; projectId: string }>((r) => (ready = r));
  const child = start("baseline", process.execPath, [...nodeArgs("baseline"), "--import", "tsx", "bench/raw-server.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", BENCH_DATABASE_URL: databaseUrl ?? "", BENCH_PGLITE_DIR: pgliteDir },
    echoStderr: true,
    onLine: (l) => {
      if (l.startsWith("{")) ready(JSON.parse(l) as { port: number; apiKey: string; projectId: string });
    },
  });
  const info = await Promise.race([
    announced,
    child.exited.then((code) => {
      throw new Error(`baseline exited (${code}) before it was ready:\n${child.tail()}`);
    }),
  ]);
  return { name: "baseline", url: `http://127.0.0.1:${info.port}/projects/${encodeURIComponent(info.projectId)}`, apiKey: info.apiKey, projectId: info.projectId, child };
}

type PhaseStats = Stats & {
  /** CPU time of the server process per measured request (not the database's); null without /proc. */
  serverCpuMsPerRequest: number | null;
  /** CPU use of this load generator during the run, in % of one core (near 100: the generator is the limit). */
  generatorCpuPercent: number;
};

// The first phase of each server starts with a longer warm-up: until V8 has optimised the hot
// path, round 1 ran up to 40% slower than the next ones, which skews a median of 2 rounds.
const warmedUp = new Set<string>();

async function phase(t: Target & { child: Child }): Promise<PhaseStats> {
  const agent = keepAliveAgent(opts.concurrency);
  const common = { url: t.url, headers: { "x-api-key": t.apiKey }, concurrency: opts.concurrency, check: checkProject(t.projectId), agent };
  try {
    const warmup = warmedUp.has(t.name) ? opts.warmup : Math.max(opts.warmup, opts.initialWarmup);
    warmedUp.add(t.name);
    await runLoad({ ...common, requests: warmup, maxSeconds: opts.maxSeconds });
    const cpu0 = cpuMs(t.child.proc.pid);
    const gen0 = process.cpuUsage();
    const result = await runLoad({ ...common, requests: opts.requests, maxSeconds: opts.maxSeconds });
    const gen = process.cpuUsage(gen0);
    const cpu1 = cpuMs(t.child.proc.pid);
    if (result.timedOut) console.log(`  (${t.name}: stopped at ${opts.maxSeconds} s after ${result.latenciesMs.length} requests)`);
    const stats = summarize(result);
    return {
      ...stats,
      serverCpuMsPerRequest: cpu0 !== undefined && cpu1 !== undefined && stats.requests ? (cpu1 - cpu0) / stats.requests : null,
      generatorCpuPercent: (100 * (gen.user + gen.system)) / 1000 / result.elapsedMs,
    };
  } finally {
    agent.destroy();
  }
}

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const row = (cells: (string | number)[]) => cells.map((c, i) => (i === 0 ? String(c).padEnd(12) : String(c).padStart(10))).join(" ");

async function main() {
  console.log(
    `project_get benchmark: ${opts.mode} database, concurrency ${opts.concurrency}, ${opts.warmup} warm-up (${opts.initialWarmup} the first time) + ${opts.requests} requests per phase (max ${opts.maxSeconds} s), ${opts.rounds} rounds; node ${process.version}, ${os.cpus().length} CPUs`,
  );
  await ensureBuild(ROOT);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "todo-bench-"));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const databaseUrl = opts.mode === "postgres" ? await createPgDatabase(args["pg-url"], "todo_bench", cleanups) : undefined;

  console.log("starting the app (production server)…");
  const app = await startApp(path.join(tmp, "app-data"), databaseUrl);
  console.log("starting the baseline (bench/raw-server.ts)…");
  const baseline = await startBaseline(path.join(tmp, "baseline-pglite"), databaseUrl);

  // One checked request each before anything is timed.
  for (const t of [app, baseline]) {
    const agent = keepAliveAgent(1);
    await runLoad({ url: t.url, headers: { "x-api-key": t.apiKey }, concurrency: 1, requests: 1, maxSeconds: 30, check: checkProject(t.projectId), agent });
    agent.destroy();
  }

  // One table row per phase, printed as it finishes.
  const phases: { round: number; target: Target["name"]; stats: PhaseStats }[] = [];
  console.log(`\n${row(["phase", "requests", "seconds", "req/s", "mean ms", "p50 ms", "p90 ms", "p99 ms", "max ms", "cpu ms/req", "gen cpu%"])}`);
  for (let round = 1; round <= opts.rounds; round++) {
    for (const t of [baseline, app]) {
      const s = await phase(t);
      phases.push({ round, target: t.name, stats: s });
      console.log(row([`${t.name} #${round}`, s.requests, f2(s.seconds), Math.round(s.rps), f2(s.meanMs), f2(s.p50Ms), f2(s.p90Ms), f2(s.p99Ms), f2(s.maxMs), s.serverCpuMsPerRequest === null ? "-" : f2(s.serverCpuMsPerRequest), Math.round(s.generatorCpuPercent)]));
    }
  }

  const of = (name: Target["name"]) => phases.filter((p) => p.target === name).map((p) => p.stats);
  const med = (name: Target["name"]) => ({
    rps: median(of(name).map((s) => s.rps)),
    p99Ms: median(of(name).map((s) => s.p99Ms)),
    serverCpuMsPerRequest: median(of(name).map((s) => s.serverCpuMsPerRequest ?? NaN)),
  });
  const a = med("app");
  const b = med("baseline");
  const throughputRatio = a.rps / b.rps;
  const p99Ratio = a.p99Ms / b.p99Ms;

  console.log("");
  const summary =
    `project_get: app ${Math.round(a.rps)} req/s p99 ${f1(a.p99Ms)} ms | baseline ${Math.round(b.rps)} req/s p99 ${f1(b.p99Ms)} ms | ` +
    `throughput ratio ${f2(throughputRatio)} (target >= ${f2(TARGET_RATIO)}) | p99 ratio ${f2(p99Ratio)}`;
  console.log(`${summary}   [${opts.mode}, median of ${opts.rounds} rounds]`);
  if (!Number.isNaN(a.serverCpuMsPerRequest))
    console.log(`server CPU per request: app ${f2(a.serverCpuMsPerRequest)} ms | baseline ${f2(b.serverCpuMsPerRequest)} ms (less noisy than req/s on a busy machine)`);

  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `project-get-${stamp}.json`);
  const json = {
    benchmark: "project_get",
    date: new Date().toISOString(),
    options: opts,
    machine: { node: process.version, platform: `${os.platform()} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavg: os.loadavg() },
    phases,
    median: { app: a, baseline: b },
    throughputRatio,
    p99Ratio,
    target: { throughputRatio: TARGET_RATIO },
    summary,
    ...(profDir ? { cpuProfiles: profDir } : {}),
  };
  writeFileSync(file, JSON.stringify(json, null, 2) + "\n");
  console.log(`results: ${path.relative(process.cwd(), file)}`);
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  if (!exit.interrupted) console.error(`\nbenchmark failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await cleanup();
  if (profDir) console.log(`CPU profiles: ${path.relative(process.cwd(), profDir)} (open in Chrome DevTools or speedscope)`);
}
process.exit(exit.interrupted ? 130 : failed ? 1 : 0);
