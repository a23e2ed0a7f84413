// npm run bench [-- --pg] [--concurrency 8,50] [--requests 3000] [--warmup 300] [--initial-warmup 2000] [--rounds 2] [--max-seconds 30] [--cpu-prof]
//
// Server CPU per request and latency of GET /api/v1/projects/{projectId} (operation project_get,
// API key in x-api-key) served by the real production server, against three servers in the same
// run: a bare Next.js app returning constant JSON (bench/next-bare) and, in the same app, a
// catch-all route doing project_get's Prisma statements; plain node:http returning the same
// constant, and plain node:http doing project_get's Prisma statements (bench/raw-server.ts).
// Target: app CPU/request <= 1.2 x (bare Next constant + raw Prisma read) at every concurrency.
// The bare Next route with the statements separates what Next and Prisma cost together from what
// the product adds. Phases alternate the five targets per round; the median of the rounds is
// reported. See bench/README.md.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { keepAliveAgent, median, runLoad, summarize, type Reply, type Stats } from "./lib/load.ts";
import { databaseOptions, positiveInt as positive } from "./lib/args.ts";
import { createPgDatabase, ensureBuild, startBenchApp } from "./lib/setup.ts";
import { cpuMs, exitCleanup, run, start, type Child } from "./lib/processes.ts";
import { serverNodeArgs } from "../scripts/server-node.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NEXT_BARE = path.join(ROOT, "bench", "next-bare");
/** app CPU per request <= TARGET_CPU_RATIO x (bare Next constant + raw Prisma read). */
const TARGET_CPU_RATIO = 1.2;

const { values: args } = parseArgs({
  options: {
    ...databaseOptions,
    concurrency: { type: "string", default: "8,50" },
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
  console.log("npm run bench -- [--pg] [--pg-url postgresql://…/postgres] [--concurrency 8,50] [--requests 3000] [--warmup 300] [--initial-warmup 2000] [--rounds 2] [--max-seconds 30] [--cpu-prof]");
  process.exit(0);
}
const opts = {
  mode: args.pg ? ("postgres" as const) : ("embedded" as const),
  concurrency: args.concurrency.split(",").map((c) => positive("concurrency", c.trim())),
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

type Name = "next-const" | "next-prisma" | "raw-const" | "raw-prisma" | "app";
type Target = { name: Name; url: string; headers: Record<string, string>; check: (r: Reply) => string | null };
type Server = Target & { child: Child };
const ORDER: Name[] = ["next-const", "next-prisma", "raw-const", "raw-prisma", "app"];
const WHAT: Record<Name, string> = {
  "next-const": "bare Next.js route, constant JSON (bench/next-bare)",
  "next-prisma": "bare Next.js catch-all route, project_get's Prisma statements (bench/next-bare, bench/lib/project-read.ts)",
  "raw-const": "node:http, the same constant JSON",
  "raw-prisma": "node:http, project_get's Prisma statements (bench/raw-server.ts)",
  app: "the product's project_get (production server)",
};

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

function checkConstant(r: Reply): string | null {
  if (r.status !== 200) return "expected status 200";
  try {
    return (JSON.parse(r.body) as { name?: unknown }).name === "constant" ? null : "expected the constant body";
  } catch {
    return "response is not JSON";
  }
}

// One directory per server: node writes a profile per thread (tsx's loader runs in its own), the largest is the main one.
const profArgs = (name: string) => (profDir ? ["--cpu-prof", `--cpu-prof-dir=${path.join(profDir, name)}`] : []);
// The baselines below run with the Node options the product runs with (scripts/server-node.mjs;
// startBenchApp adds them to the app), so the ratios compare code, not garbage-collector settings.

async function startApp(dataDir: string, databaseUrl: string | undefined): Promise<Server> {
  const { base: url, apiKey, child } = await startBenchApp({ root: ROOT, dataDir, databaseUrl, email: "bench@bench.invalid", nodeArgs: profArgs("app") });

  const res = await fetch(`${url}/api/v1/projects`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": apiKey },
    body: JSON.stringify({ name: "Bench project", description: "project_get benchmark" }),
  });
  const project = (await res.json()) as { id?: string };
  if (res.status !== 200 || !project.id) throw new Error(`POST /api/v1/projects answered ${res.status}: ${JSON.stringify(project)}`);
  return { name: "app", url: `${url}/api/v1/projects/${encodeURIComponent(project.id)}`, headers: { "x-api-key": apiKey }, check: checkProject(project.id), child };
}

/** Starts a child that prints one JSON line when it listens; resolves with that line. */
async function announced<T>(name: string, args: string[], env: Record<string, string>): Promise<{ info: T; child: Child }> {
  let ready: (v: T) => void;
  const line = new Promise<T>((r) => (ready = r));
  const child = start(name, process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env, NODE_ENV: "production" },
    echoStderr: true,
    onLine: (l) => {
      if (l.startsWith("{")) ready(JSON.parse(l) as T);
    },
  });
  const info = await Promise.race([
    line,
    child.exited.then((code) => {
      throw new Error(`${name} exited (${code}) before it was ready:\n${child.tail()}`);
    }),
  ]);
  return { info, child };
}

/**
 * Starts a baseline server that opens its own database with bench/lib/project-read.ts (the same
 * PostgreSQL database, or its own PGlite directory) and announces its port, key and project; its
 * two targets: GET /constant, and project_get's statements under `projectsPath`.
 */
async function startBaseline(
  label: string,
  args: string[],
  names: { constant: Name; project: Name },
  projectsPath: string,
  db: { pgliteDir: string; databaseUrl: string | undefined },
): Promise<{ constant: Server; project: Server }> {
  const { info, child } = await announced<{ port: number; apiKey: string; projectId: string }>(label, args, {
    BENCH_DATABASE_URL: db.databaseUrl ?? "",
    BENCH_PGLITE_DIR: db.pgliteDir,
  });
  const base = `http://127.0.0.1:${info.port}`;
  return {
    constant: { name: names.constant, url: `${base}/constant`, headers: {}, check: checkConstant, child },
    project: { name: names.project, url: `${base}${projectsPath}/${encodeURIComponent(info.projectId)}`, headers: { "x-api-key": info.apiKey }, check: checkProject(info.projectId), child },
  };
}

function startRaw(pgliteDir: string, databaseUrl: string | undefined) {
  return startBaseline("raw", [...profArgs("raw"), ...serverNodeArgs("bench/raw-server.ts")], { constant: "raw-const", project: "raw-prisma" }, "/projects", { pgliteDir, databaseUrl });
}

/** A digest of the bare Next app's sources (its routes and config), to know when its build is stale. */
function nextBareSources(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else hash.update(path.relative(NEXT_BARE, p)).update("\0").update(readFileSync(p)).update("\0");
    }
  };
  walk(path.join(NEXT_BARE, "app"));
  hash.update(readFileSync(path.join(NEXT_BARE, "next.config.mjs")));
  return hash.digest("hex");
}

/**
 * The bare Next app (bench/next-bare/.next is gitignored), built on first use and again when its
 * sources changed; with its own database (the same PostgreSQL database, or its own PGlite
 * directory) for its project_get route.
 */
async function startNextBare(pgliteDir: string, databaseUrl: string | undefined): Promise<{ constant: Server; project: Server }> {
  const stamp = path.join(NEXT_BARE, ".next", "bench-sources.sha256");
  const sources = nextBareSources();
  if (!existsSync(path.join(NEXT_BARE, ".next", "BUILD_ID")) || !existsSync(stamp) || readFileSync(stamp, "utf8") !== sources) {
    console.log("building the bare Next app (bench/next-bare)…");
    await run("next build (bench/next-bare)", "npx", ["next", "build", NEXT_BARE], { cwd: ROOT, env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }, echoStderr: true });
    writeFileSync(stamp, sources);
  }
  return startBaseline("next-bare", [...profArgs("next-bare"), ...serverNodeArgs(path.join(NEXT_BARE, "server.mjs"))], { constant: "next-const", project: "next-prisma" }, "/api/v1/projects", {
    pgliteDir,
    databaseUrl,
  });
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

async function phase(t: Server, concurrency: number): Promise<PhaseStats> {
  const agent = keepAliveAgent(concurrency);
  const common = { url: t.url, headers: t.headers, concurrency, check: t.check, agent };
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
const f3 = (n: number) => n.toFixed(3);
const row = (cells: (string | number)[]) => cells.map((c, i) => (i === 0 ? String(c).padEnd(16) : String(c).padStart(10))).join(" ");

type Level = {
  concurrency: number;
  median: Record<Name, { rps: number; p99Ms: number; serverCpuMsPerRequest: number }>;
  /** app CPU / (bare Next constant + raw Prisma read). */
  cpuRatio: number;
  /** app CPU / bare Next route doing the same statements: what the product adds to Next and Prisma together. */
  productRatio: number;
  /** bare Next route with the statements − (bare Next constant + raw Prisma read): what Next and Prisma cost more together than apart, ms. */
  togetherExtraMs: number;
  summary: string;
};

async function main() {
  console.log(
    `project_get benchmark: ${opts.mode} database, concurrency ${opts.concurrency.join(" and ")}, ${opts.warmup} warm-up (${opts.initialWarmup} the first time) + ${opts.requests} requests per phase (max ${opts.maxSeconds} s), ${opts.rounds} rounds; node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map(f2).join(" ")}`,
  );
  await ensureBuild(ROOT);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "todo-bench-"));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const databaseUrl = opts.mode === "postgres" ? await createPgDatabase(args["pg-url"], "todo_bench", cleanups) : undefined;

  console.log("starting the app (production server)…");
  const app = await startApp(path.join(tmp, "app-data"), databaseUrl);
  console.log("starting the raw node:http server (bench/raw-server.ts)…");
  const raw = await startRaw(path.join(tmp, "raw-pglite"), databaseUrl);
  console.log("starting the bare Next app (bench/next-bare)…");
  const nextBare = await startNextBare(path.join(tmp, "next-bare-pglite"), databaseUrl);
  const servers: Record<Name, Server> = { "next-const": nextBare.constant, "next-prisma": nextBare.project, "raw-const": raw.constant, "raw-prisma": raw.project, app };
  for (const n of ORDER) console.log(`  ${n.padEnd(10)} ${WHAT[n]}`);

  // One checked request each before anything is timed.
  for (const n of ORDER) {
    const t = servers[n];
    const agent = keepAliveAgent(1);
    await runLoad({ url: t.url, headers: t.headers, concurrency: 1, requests: 1, maxSeconds: 30, check: t.check, agent });
    agent.destroy();
  }

  const phases: { concurrency: number; round: number; target: Name; stats: PhaseStats }[] = [];
  const levels: Level[] = [];
  for (const concurrency of opts.concurrency) {
    // One table row per phase, printed as it finishes.
    console.log(`\nconcurrency ${concurrency}`);
    console.log(row(["phase", "requests", "seconds", "req/s", "mean ms", "p50 ms", "p90 ms", "p99 ms", "max ms", "cpu ms/req", "gen cpu%"]));
    for (let round = 1; round <= opts.rounds; round++) {
      for (const n of ORDER) {
        const s = await phase(servers[n], concurrency);
        phases.push({ concurrency, round, target: n, stats: s });
        console.log(row([`${n} #${round}`, s.requests, f2(s.seconds), Math.round(s.rps), f2(s.meanMs), f2(s.p50Ms), f2(s.p90Ms), f2(s.p99Ms), f2(s.maxMs), s.serverCpuMsPerRequest === null ? "-" : f3(s.serverCpuMsPerRequest), Math.round(s.generatorCpuPercent)]));
      }
    }
    const of = (n: Name) => phases.filter((p) => p.concurrency === concurrency && p.target === n).map((p) => p.stats);
    const med = Object.fromEntries(
      ORDER.map((n) => [n, { rps: median(of(n).map((s) => s.rps)), p99Ms: median(of(n).map((s) => s.p99Ms)), serverCpuMsPerRequest: median(of(n).map((s) => s.serverCpuMsPerRequest ?? NaN)) }]),
    ) as Level["median"];
    const cpu = (n: Name) => med[n].serverCpuMsPerRequest;
    const cpuRatio = cpu("app") / (cpu("next-const") + cpu("raw-prisma"));
    const productRatio = cpu("app") / cpu("next-prisma");
    const togetherExtraMs = cpu("next-prisma") - cpu("next-const") - cpu("raw-prisma");
    const summary =
      `project_get @${concurrency}: server CPU/request app ${f3(cpu("app"))} ms | bare Next constant ${f3(cpu("next-const"))} + raw Prisma read ${f3(cpu("raw-prisma"))} ms ` +
      `(raw constant ${f3(cpu("raw-const"))}) | ratio ${f2(cpuRatio)} (target <= ${f2(TARGET_CPU_RATIO)}) ${cpuRatio <= TARGET_CPU_RATIO ? "met" : "NOT met"} | ` +
      `bare Next route with the same statements ${f3(cpu("next-prisma"))} ms (${togetherExtraMs >= 0 ? "+" : ""}${f3(togetherExtraMs)} over Next and Prisma apart), app ÷ it ${f2(productRatio)} | ` +
      `app ${Math.round(med.app.rps)} req/s p99 ${f1(med.app.p99Ms)} ms, raw Prisma ${Math.round(med["raw-prisma"].rps)} req/s p99 ${f1(med["raw-prisma"].p99Ms)} ms`;
    levels.push({ concurrency, median: med, cpuRatio, productRatio, togetherExtraMs, summary });
  }

  console.log("");
  for (const l of levels) console.log(`${l.summary}   [${opts.mode}, median of ${opts.rounds} rounds]`);

  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `project-get-${stamp}.json`);
  const json = {
    benchmark: "project_get",
    date: new Date().toISOString(),
    options: opts,
    machine: { node: process.version, platform: `${os.platform()} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavg: os.loadavg() },
    servers: WHAT,
    phases,
    levels,
    target: { cpuRatio: TARGET_CPU_RATIO },
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
  if (profDir) console.log(`CPU profiles: ${path.relative(process.cwd(), profDir)}/{app,raw,next-bare} (open in Chrome DevTools or speedscope)`);
}
process.exit(exit.interrupted ? 130 : failed ? 1 : 0);
