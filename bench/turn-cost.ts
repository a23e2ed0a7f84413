// npx tsx bench/turn-cost.ts [--pg] [--in-flight 32] [--seconds 15] [--rounds 3] [--step-ms 100] [--cpu-prof]
//
// What one agent turn costs the service in CPU, with nothing else running: N turns of the built-in
// local agent are kept in flight on the production server (each ended turn, seen as todo.status
// READY over Socket.IO, starts the next with a message, as bench/agent-turns.ts does), and the
// server's CPU time (and with --pg the database backends') is divided by the turns that ended. The
// baseline, in the same run and alternating with it round by round: the same model (the product's
// LocalLanguageModel) streaming the same replies through the AI SDK's streamText in this process,
// N at once, with no service around it. The ratio is what the service adds to the SDK's own
// streaming per turn: its requests, transactions, events and replies. See bench/README.md.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { streamText } from "ai";
import { io as connectSocket } from "socket.io-client";
import { databaseOptions, positiveInt } from "./lib/args.ts";
import { median } from "./lib/load.ts";
import { cpuMs, exitCleanup } from "./lib/processes.ts";
import { apiJson, createPgDatabase, ensureBuild, openDbCpu, startBenchApp } from "./lib/setup.ts";
import { LocalLanguageModel } from "../server/agent/providers/local-model.ts";
import { REPORT_MS } from "../server/db/statement-count.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values: args } = parseArgs({
  options: {
    ...databaseOptions,
    "in-flight": { type: "string", default: "32" },
    seconds: { type: "string", default: "15" },
    rounds: { type: "string", default: "3" },
    "step-ms": { type: "string", default: "100" },
    "warmup-seconds": { type: "string", default: "8" },
    "cpu-prof": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  console.log("npx tsx bench/turn-cost.ts [--pg] [--pg-url …] [--in-flight 32] [--seconds 15] [--rounds 3] [--step-ms 100] [--warmup-seconds 8] [--cpu-prof]");
  process.exit(0);
}
const inFlight = positiveInt("in-flight", args["in-flight"]);
const seconds = positiveInt("seconds", args.seconds);
const rounds = positiveInt("rounds", args.rounds);
const stepMs = positiveInt("step-ms", args["step-ms"]);
const warmupSeconds = positiveInt("warmup-seconds", args["warmup-seconds"]);

const exit = exitCleanup("the server");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A turn's message: a line and a short list, as in bench/agent-turns.ts (the reply gets 3 checklist blocks). */
const message = (n: number) => `Bench turn ${n}\n- check the inputs\n- draft the answer\n- review it`;
const f1 = (n: number) => n.toFixed(1);

type Window = { turns: number; serverMs: number; dbMs: number; statements: number; seconds: number };

async function main() {
  const mode = args.pg ? "postgres" : "embedded";
  console.log(`turn cost: ${mode} database, ${inFlight} turns in flight, AGENT_STEP_MS ${stepMs}, ${rounds} rounds of ${seconds} s each; node ${process.version}, ${os.cpus().length} CPUs`);
  await ensureBuild(ROOT);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "todo-bench-turn-cost-"));
  exit.cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const databaseUrl = args.pg ? await createPgDatabase(args["pg-url"], "todo_bench_turn_cost", exit.cleanups) : undefined;
  const statementsFile = path.join(tmp, "statements.json");
  const profDir = args["cpu-prof"] ? path.join(ROOT, "bench", "results", `cpu-prof-turn-cost-${new Date().toISOString().replace(/[:.]/g, "-")}`) : undefined;
  const app = await startBenchApp({
    root: ROOT,
    dataDir: path.join(tmp, "app-data"),
    databaseUrl,
    email: "bench-turn-cost@bench.invalid",
    env: { AGENT_PROVIDER: "local", AGENT_STEP_MS: String(stepMs), BILLING_ENABLED: "0", BENCH_STATEMENTS_FILE: statementsFile, AGENT_MAX_CONCURRENT: String(inFlight), AGENT_MAX_CONCURRENT_PER_USER: String(inFlight) },
    nodeArgs: profDir ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [],
  });
  const pid = app.child.proc.pid;

  // The database's backends of this bench (same machine), for their CPU time.
  const dbCpu = databaseUrl ? await openDbCpu(args["pg-url"], databaseUrl, exit.cleanups) : undefined;
  const dbSample = async () => (await dbCpu?.sample()) ?? new Map<number, number>();
  const statements = () => (JSON.parse(readFileSync(statementsFile, "utf8")) as { statements: number }).statements;

  const api = <T>(method: string, route: string, body?: unknown, headers?: Record<string, string>) => apiJson<T>(app, method, route, body, headers);
  const project = await api<{ id: string }>("POST", "/projects", { name: "Turn cost" });
  const socket = connectSocket(app.base, { path: "/socket.io", transports: ["websocket"], auth: { token: app.apiKey }, reconnection: false });
  exit.cleanups.push(() => void socket.disconnect());
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  await api("POST", `/projects/${project.id}/subscribe`, {}, { "x-socket-id": socket.id! });

  // The service: a todo whose turn ended starts its next one while `running`.
  let running = false;
  let ended = 0;
  let failure: Error | undefined;
  const todos = new Set<string>();
  let sent = 0;
  socket.on("todo.status", (e: { todoId: string; data: { status: string } }) => {
    if (!todos.has(e.todoId)) return;
    if (e.data.status === "ERROR") failure = new Error(`todo ${e.todoId} went to ERROR`);
    if (e.data.status !== "READY") return;
    ended++;
    if (running) void api("POST", `/todos/${e.todoId}/messages`, { content: message(++sent), startProcessing: true }).catch((err: Error) => (failure = err));
  });
  /** Runs the service's turns for `ms` and measures the window (the turns already in flight go on; none start after). */
  const serviceWindow = async (ms: number): Promise<Window> => {
    running = true;
    const idle: Promise<unknown>[] = [];
    for (const id of todos) idle.push(api("POST", `/todos/${id}/messages`, { content: message(++sent), startProcessing: true }));
    while (todos.size < inFlight) {
      const todo = await api<{ id: string }>("POST", `/projects/${project.id}/todos`, { content: message(++sent), startProcessing: true });
      todos.add(todo.id);
    }
    await Promise.all(idle);
    await sleep(2_000); // the starts spread out over a turn's length
    const t0 = performance.now();
    const [c0, d0, s0, e0] = [cpuMs(pid) ?? 0, await dbSample(), statements(), ended];
    await sleep(ms);
    const [c1, d1, s1, e1] = [cpuMs(pid) ?? 0, await dbSample(), statements(), ended];
    const secs = (performance.now() - t0) / 1000;
    running = false;
    // Every turn ends before the baseline runs (a turn alone takes about 1.5 s at 100 ms steps).
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !(await allReady())) await sleep(250);
    if (failure) throw failure;
    return { turns: e1 - e0, serverMs: c1 - c0, dbMs: dbCpu?.since(d0, d1) ?? 0, statements: s1 - s0, seconds: secs };
  };
  const allReady = async () => {
    const page = await api<{ items: { status: string }[] }>("GET", `/projects/${project.id}/todos?limit=200`);
    return page.items.every((t) => t.status !== "RUNNING");
  };

  // The baseline: the same model and replies through streamText in this process, N at once.
  const model = new LocalLanguageModel(stepMs);
  const sdkWindow = async (ms: number): Promise<Window> => {
    let done = 0;
    let on = true;
    const stream = async (): Promise<void> => {
      while (on) {
        const result = streamText({ model, messages: [{ role: "user", content: message(++sent) }] });
        for await (const part of result.fullStream) if (part.type === "error") throw part.error;
        if (on) done++;
      }
    };
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const streams = Array.from({ length: inFlight }, stream);
    await sleep(ms);
    const c1 = process.cpuUsage(c0);
    const turns = done;
    const secs = (performance.now() - t0) / 1000;
    on = false;
    await Promise.all(streams);
    return { turns, serverMs: (c1.user + c1.system) / 1000, dbMs: 0, statements: 0, seconds: secs };
  };

  console.log(`warming up for ${warmupSeconds} s…`);
  await serviceWindow(warmupSeconds * 1000);
  await sdkWindow(warmupSeconds * 1000);

  const service: Window[] = [];
  const sdk: Window[] = [];
  console.log("\nround   service ms/turn (server + db)   statements/turn   turns/s   SDK alone ms/turn   SDK turns/s   ratio");
  for (let r = 1; r <= rounds; r++) {
    // Alternating order, so both see the machine's drift alike.
    let s: Window, b: Window;
    if (r % 2) {
      s = await serviceWindow(seconds * 1000);
      b = await sdkWindow(seconds * 1000);
    } else {
      b = await sdkWindow(seconds * 1000);
      s = await serviceWindow(seconds * 1000);
    }
    service.push(s);
    sdk.push(b);
    const perTurn = s.serverMs / s.turns;
    const sdkPerTurn = b.serverMs / b.turns;
    console.log(
      `${String(r).padEnd(8)}${`${f1(perTurn)} + ${f1(s.dbMs / s.turns)}`.padEnd(32)}${f1(s.statements / s.turns).padEnd(18)}${f1(s.turns / s.seconds).padEnd(10)}${f1(sdkPerTurn).padEnd(20)}${f1(b.turns / b.seconds).padEnd(14)}${(perTurn / sdkPerTurn).toFixed(2)}`,
    );
  }
  const perTurn = median(service.map((s) => s.serverMs / s.turns));
  const dbPerTurn = median(service.map((s) => s.dbMs / s.turns));
  const sdkPerTurn = median(sdk.map((s) => s.serverMs / s.turns));
  const turnSeconds = median(service.map((s) => (inFlight * s.seconds) / s.turns));
  console.log(
    `\nmedians: the service ${f1(perTurn)} ms of server CPU per turn${databaseUrl ? ` + ${f1(dbPerTurn)} ms of the database's` : ""}, ` +
      `the SDK alone ${f1(sdkPerTurn)} ms: ${(perTurn / sdkPerTurn).toFixed(2)}×; a turn lasts ${f1(turnSeconds)} s here.`,
  );
  // What issue 17's 256 turns in flight at this step length would take of this machine's CPU.
  const cores = (256 / turnSeconds) * (perTurn + dbPerTurn) / 1000;
  console.log(`256 turns in flight would start and end ${f1(256 / turnSeconds)} turns a second: ${cores.toFixed(2)} cores of CPU at this cost (server${databaseUrl ? " and database" : ""}), on a machine of ${os.cpus().length}.`);
  console.log(`(statements per turn counted by the server's driver adapter, every ${REPORT_MS} ms: ±1 s of turns at each end of a window)`);
}

main()
  .then(() => exit.cleanup())
  .catch(async (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    await exit.cleanup();
    process.exit(1);
  });
