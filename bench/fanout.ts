// npx tsx bench/fanout.ts [--clients 1000] [--events 50] [--rate 10] [--rounds 5] [--warmup 300] [--subscribe handshake|http] [--pg] [--redis-url redis://127.0.0.1:6379] [--cpu-prof]
//
// Real-time fan-out (issue 18): N Socket.IO clients, each subscribed to one todo (in the
// handshake, `auth.subscribe`, as the browser and the CLI do; `--subscribe http`: connect, then
// todo_subscribe), receive the
// events of `todo_update` requests sent at `rate` per second through the real API. Measured in
// this process: from sending the request to each client's receipt (p50/p99), the request's own
// response time, delivery (every client must get every event), and the time to connect and
// subscribe every client. Baseline in the same run: a bare Socket.IO server (bench/fanout-bare.ts)
// broadcasting an envelope of the same size to the same number of clients. With --pg, a third
// phase splits the clients over two server processes on one PostgreSQL and Redis (the Redis
// adapter carries the events across); the requests go to the first process. Server CPU (from
// /proc, every server process of the phase together) is given per connection and per event.
// Every server is started and its clients connected once; then `rounds` rounds each drive
// `events` events through every server in turn (bare, product, split), so each product phase has
// a bare phase of the same minute to compare with. Per round: p99 ÷ bare p99 of that round; the
// summary gives the median of the rounds (one round alone moves with the machine). Then, once a
// round, every target's clients are closed and connect again, to servers that have been serving:
// connect+subscribe is given for the first connect and as the median of these.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { io, type Socket } from "socket.io-client";
import { median, percentile } from "./lib/load.ts";
import { databaseOptions } from "./lib/args.ts";
import { createPgDatabase, ensureBuild, startBenchApp, type BenchApp } from "./lib/setup.ts";
import { cpuMs, exitCleanup, freePort, start } from "./lib/processes.ts";
// The bare server gets the Node options the product runs with, so the ratios compare code, not GC settings.
import { serverNodeArgs } from "../scripts/server-node.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values: args } = parseArgs({
  options: {
    clients: { type: "string", default: "1000" },
    events: { type: "string", default: "50" },
    rate: { type: "string", default: "10" },
    rounds: { type: "string", default: "5" },
    warmup: { type: "string", default: "300" },
    subscribe: { type: "string", default: "handshake" },
    ...databaseOptions,
    "redis-url": { type: "string", default: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379" },
    "cpu-prof": { type: "boolean", default: false },
  },
  strict: true,
});
const CLIENTS = Number(args.clients);
const EVENTS = Number(args.events);
const RATE = Number(args.rate);
const ROUNDS = Number(args.rounds);
const WARMUP = Number(args.warmup);
for (const [k, v] of [["clients", CLIENTS], ["events", EVENTS], ["rate", RATE], ["rounds", ROUNDS]] as const)
  if (!Number.isInteger(v) || v < 1) {
    console.error(`--${k} must be a positive integer`);
    process.exit(2);
  }
if (!Number.isInteger(WARMUP) || WARMUP < 0) {
  console.error("--warmup must be 0 or a positive integer");
  process.exit(2);
}

if (args.subscribe !== "handshake" && args.subscribe !== "http") {
  console.error("--subscribe must be handshake or http");
  process.exit(2);
}
const exit = exitCleanup("the servers");
const now = () => performance.now();
/** Between closing every client of a target and connecting them again (reconnect). */
const RECONNECT_PAUSE_MS = 500;

type Phase = { name: string; latencies: number[]; responses: number[]; delivered: number; expected: number; cpuPerEvent: number };

/** CPU time (ms) the processes `pids` used so far, together. */
const cpuOf = (pids: (number | undefined)[]) => pids.reduce<number>((sum, pid) => sum + (cpuMs(pid) ?? NaN), 0);
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
/** With --cpu-prof: node options writing V8 CPU profiles of a server to bench/results/cpu-prof-fanout-<time>/<name>/. */
const profArgs = (name: string) => (args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.join(ROOT, "bench", "results", `cpu-prof-fanout-${stamp}`, name)}`] : []);

/**
 * Connects `n` websocket clients to `urls` (round-robin), each calling `subscribe` once connected,
 * or, with `handshakeTodo`, waiting for the `subscription` event that confirms the todo's room.
 */
async function connectAll(urls: string[], n: number, auth: object, onEvent: (socket: number, data: unknown) => void, subscribe?: (url: string, socketId: string) => Promise<void>, handshakeTodo?: string): Promise<{ sockets: Socket[]; ms: number }> {
  const t0 = now();
  const sockets: Socket[] = [];
  const batch = 50;
  for (let i = 0; i < n; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, async (_, j) => {
        const idx = i + j;
        const url = urls[idx % urls.length]!;
        const s = io(url, { path: "/socket.io", transports: ["websocket"], auth, reconnection: false, timeout: 60_000 });
        sockets[idx] = s;
        s.on("todo.updated", (data: unknown) => onEvent(idx, data));
        await new Promise<void>((resolve, reject) => {
          if (handshakeTodo)
            s.once("subscription", (o: { subscribed?: { id: string }[]; refused?: unknown[] }) =>
              o.subscribed?.some((t) => t.id === handshakeTodo) ? resolve() : reject(new Error(`handshake subscription refused: ${JSON.stringify(o.refused)}`)),
            );
          else s.once("connect", () => resolve());
          s.once("connect_error", reject);
        });
        if (subscribe) await subscribe(url, s.id!);
      }),
    );
  }
  return { sockets, ms: now() - t0 };
}

/**
 * Sends `EVENTS` events at `RATE`/s with `send(seq)` (seq from `first` on), and waits for
 * deliveries to settle; `received` (filled by the clients' handlers) starts empty. CPU of `pids`.
 */
async function drive(name: string, pids: (number | undefined)[], send: (seq: number) => Promise<void>, received: Map<number, number[]>, first: number, events = EVENTS, rate = RATE): Promise<Phase> {
  received.clear();
  const sentAt = new Map<number, number>();
  const cpu0 = cpuOf(pids);
  const responses: number[] = [];
  const interval = 1000 / rate;
  const start0 = now();
  const inflight: Promise<void>[] = [];
  for (let seq = first; seq < first + events; seq++) {
    const due = start0 + (seq - first) * interval;
    const wait = due - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sentAt.set(seq, now());
    const t = now();
    inflight.push(send(seq).then(() => void responses.push(now() - t)));
  }
  await Promise.all(inflight);
  // Let the last deliveries arrive (at most 5 s).
  const deadline = now() + 5000;
  while (now() < deadline && [...received.values()].reduce((n, l) => n + l.length, 0) < events * CLIENTS) await new Promise((r) => setTimeout(r, 50));
  const latencies: number[] = [];
  let delivered = 0;
  for (const [seq, times] of received) {
    const sent = sentAt.get(seq)!;
    for (const at of times) latencies.push(at - sent);
    delivered += times.length;
  }
  const cpuPerEvent = (cpuOf(pids) - cpu0) / events;
  latencies.sort((a, b) => a - b);
  responses.sort((a, b) => a - b);
  return { name, latencies, responses, delivered, expected: events * CLIENTS, cpuPerEvent };
}

function seqOf(data: unknown): number | undefined {
  const content = (data as { data?: { content?: string } } | undefined)?.data?.content ?? (data as { content?: string } | undefined)?.content;
  const m = typeof content === "string" ? /^fanout (\d+)/.exec(content) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * Connecting and subscribing every client: wall time and the servers' CPU per connection; with
 * several server processes, `byProcess` gives each one's CPU per connection it took (round-robin).
 */
type Connect = { ms: number; cpuPerConnect: number; byProcess?: number[] };

/**
 * A server under test with its clients connected; `phase(first)` drives EVENTS events through it,
 * seqs from `first`; `reconnect()` closes every client and connects and subscribes them again.
 */
type Target = { name: string; first: Connect; phase(first: number, events?: number, rate?: number): Promise<Phase>; reconnect(): Promise<Connect>; close(): Promise<void> };

/**
 * Connects CLIENTS clients to `urls` (see connectAll) of the server processes `pids`; each phase
 * of the target sends its events with `send`.
 */
async function connectTarget(name: string, pids: (number | undefined)[], urls: string[], auth: object, send: (seq: number) => Promise<void>, subscribe?: (url: string, socketId: string) => Promise<void>, handshakeTodo?: string): Promise<Target> {
  /** Receipt times by event seq, for the phase under way. */
  const received = new Map<number, number[]>();
  let sockets: Socket[] = [];
  const connect = async (): Promise<Connect> => {
    const cpu0 = pids.map((pid) => cpuOf([pid]));
    const connected = await connectAll(urls, CLIENTS, auth, (_socket, data) => {
      const seq = seqOf(data);
      if (seq !== undefined) (received.get(seq) ?? received.set(seq, []).get(seq)!).push(now());
    }, subscribe, handshakeTodo);
    sockets = connected.sockets;
    const used = pids.map((pid, i) => cpuOf([pid]) - cpu0[i]!);
    const total = used.reduce((sum, ms) => sum + ms, 0);
    return { ms: connected.ms, cpuPerConnect: total / CLIENTS, ...(pids.length > 1 ? { byProcess: used.map((ms) => ms / (CLIENTS / pids.length)) } : {}) };
  };
  const close = () => {
    for (const s of sockets) s.close();
  };
  const first = await connect();
  return {
    name,
    first,
    phase: (firstSeq, events, rate) => drive(name, pids, send, received, firstSeq, events, rate),
    async reconnect() {
      close();
      // Let the servers finish the disconnects before the clients come back.
      await new Promise((r) => setTimeout(r, RECONNECT_PAUSE_MS));
      return connect();
    },
    async close() {
      close();
    },
  };
}

async function startBare(): Promise<Target> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child!: ReturnType<typeof start>;
  await new Promise<void>((resolve, reject) => {
    child = start("bare", process.execPath, [...profArgs("bare"), ...serverNodeArgs("bench/fanout-bare.ts")], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, onLine: (line) => line === "ready" && resolve() });
    void child.exited.then((code) => reject(new Error(`the bare server exited (${code}) before it was ready:\n${child.tail()}`)));
  });
  exit.cleanups.push(async () => {
    child.proc.kill("SIGTERM");
    await child.exited;
  });
  // An envelope of the product's size (about 600 bytes): same fields, same kind of content.
  const envelope = (seq: number) => ({ type: "todo.updated", id: crypto.randomUUID(), at: Date.now(), projectId: "c".repeat(25), todoId: "c".repeat(25), data: { id: "c".repeat(25), projectId: "c".repeat(25), content: `fanout ${seq} ${"x".repeat(60)}`, status: "TODO", groupSlug: null, assignedAgent: null, isPublic: false, scheduledAt: null, createdAt: Date.now(), updatedAt: Date.now(), lastActivityAt: Date.now(), authorId: "c".repeat(25), agentState: null, hasUnread: false, messageCount: 1, padding: "p".repeat(180) } });
  return connectTarget("bare Socket.IO", [child.proc.pid], [url], {}, async (seq) => {
    const res = await fetch(`${url}/emit`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(envelope(seq)) });
    await res.arrayBuffer();
  });
}

async function startProduct(name: string, apps: BenchApp[]): Promise<Target> {
  const [first] = apps as [BenchApp];
  const h = { "x-api-key": first.apiKey, "content-type": "application/json" };
  const project = (await (await fetch(`${first.base}/api/v1/projects`, { method: "POST", headers: h, body: JSON.stringify({ name: `Fan-out ${name}` }) })).json()) as { id: string };
  // A todo the agent has answered once: its edits are one event each. (A todo not started yet also
  // rewrites its waiting first message, a second event, message.updated, with every edit of its text.)
  const todo = (await (await fetch(`${first.base}/api/v1/projects/${project.id}/todos`, { method: "POST", headers: h, body: JSON.stringify({ content: "fanout start", startProcessing: true }) })).json()) as { id: string };
  for (let status = ""; status !== "READY"; await new Promise((r) => setTimeout(r, 100))) {
    status = ((await (await fetch(`${first.base}/api/v1/todos/${todo.id}?messageLimit=1`, { headers: h })).json()) as { status: string }).status;
    if (status === "ERROR") throw new Error("the bench todo's first turn failed");
  }
  const keyOf = new Map(apps.map((a) => [a.base, a.apiKey]));
  const viaHandshake = args.subscribe === "handshake";
  return connectTarget(
    name,
    apps.map((a) => a.child.proc.pid),
    apps.map((a) => a.base),
    viaHandshake ? { token: first.apiKey, subscribe: [{ kind: "todo", id: todo.id }] } : { token: first.apiKey },
    async (seq) => {
      const res = await fetch(`${first.base}/api/v1/todos/${todo.id}`, { method: "PUT", headers: h, body: JSON.stringify({ content: `fanout ${seq} ${"x".repeat(60)}` }) });
      if (res.status !== 200) throw new Error(`todo_update: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    },
    viaHandshake
      ? undefined
      : async (url, socketId) => {
          const res = await fetch(`${url}/api/v1/todos/${todo.id}/subscribe`, { method: "POST", headers: { "x-api-key": keyOf.get(url)!, "x-socket-id": socketId } });
          if (res.status !== 200) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
        },
    viaHandshake ? todo.id : undefined,
  );
}

const fmt = (n: number) => n.toFixed(1);
/** Ratios to two places: 1.23 is over a 1.2 target, and one place would print it as 1.2. */
const fmtRatio = (n: number) => n.toFixed(2);
const p99 = (p: Phase) => percentile(p.latencies, 99);
function report(round: number, p: Phase, base?: Phase) {
  const ratio = base ? ` · p99 ${fmtRatio(p99(p) / p99(base))}× bare` : "";
  console.log(
    `  round ${round} ${p.name.padEnd(33)} delivery ${((100 * p.delivered) / p.expected).toFixed(2)}% · latency p50 ${fmt(percentile(p.latencies, 50))} ms p99 ${fmt(p99(p))} ms${ratio} · response p50 ${fmt(percentile(p.responses, 50))} ms · server CPU ${fmt(p.cpuPerEvent)} ms/event`,
  );
}

try {
  await ensureBuild(ROOT);
  console.log(`fan-out: ${CLIENTS} clients per server subscribed ${args.subscribe === "handshake" ? "in the handshake" : "with todo_subscribe"}, ${ROUNDS} rounds of ${EVENTS} events at ${RATE}/s through every server in turn (load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${os.cpus().length} cores)`);
  const targets: Target[] = [];
  const bareTarget = await startBare();
  targets.push(bareTarget);
  exit.cleanups.push(() => bareTarget.close());

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "todo-bench-fanout-"));
  exit.cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = args.pg ? await createPgDatabase(args["pg-url"], "todo_bench_fanout", exit.cleanups) : undefined;
  const email = `fanout-${Date.now()}@bench.test`;
  const redisEnv = { REDIS_URL: args["redis-url"], REDIS_PREFIX: `bench-fanout-${Date.now()}` };
  const one = await startBenchApp({ root: ROOT, dataDir, databaseUrl, email, env: args.pg ? redisEnv : {}, nodeArgs: profArgs("app1") });
  const single = await startProduct(args.pg ? "product (PostgreSQL, 1 process)" : "product (embedded, 1 process)", [one]);
  targets.push(single);
  exit.cleanups.push(() => single.close());
  if (args.pg) {
    const two = await startBenchApp({ root: ROOT, dataDir, databaseUrl, email, env: redisEnv, nodeArgs: profArgs("app2") });
    const split = await startProduct("product (PostgreSQL, 2 processes)", [one, two]);
    targets.push(split);
    exit.cleanups.push(() => split.close());
  }
  for (const t of targets) {
    const cratio = t === bareTarget ? "" : ` (${fmtRatio(t.first.ms / bareTarget.first.ms)}× bare)`;
    console.log(`${t.name.padEnd(35)} connect+subscribe ${fmt(t.first.ms / 1000)} s${cratio} · server CPU ${t.first.cpuPerConnect.toFixed(2)} ms/connection (first, freshly started servers)`);
  }
  // Warm-up, not measured: the servers run their hot paths optimised (as one that has served for a
  // while does), not the first few hundred calls through V8's interpreter.
  if (WARMUP > 0) {
    for (const t of targets) await t.phase(900_000_000, WARMUP, RATE * 2);
    console.log(`warmed up: ${WARMUP} events through every server at ${RATE * 2}/s, not measured`);
  }
  const phases: Phase[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const row: Phase[] = [];
    for (const t of targets) {
      row.push(await t.phase(round * 1_000_000));
      report(round, row.at(-1)!, t === bareTarget ? undefined : row[0]);
    }
    phases.push(row);
  }
  // Then every target's clients connect again, once a round, to servers that have been serving (as
  // after a network blip or a balancer's failover); the first connect above met freshly started ones.
  const connects: Connect[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const reconnected: Connect[] = [];
    for (const t of targets) reconnected.push(await t.reconnect());
    connects.push(reconnected);
    console.log(`  round ${round} connect+subscribe again: ${targets.map((t, i) => `${t.name} ${fmt(reconnected[i]!.ms / 1000)} s${i ? ` (${fmtRatio(reconnected[i]!.ms / reconnected[0]!.ms)}×)` : ""}, ${reconnected[i]!.cpuPerConnect.toFixed(2)} ms CPU/connection${reconnected[i]!.byProcess ? ` (by process: ${reconnected[i]!.byProcess!.map((c) => c.toFixed(2)).join(", ")})` : ""}`).join(" · ")}`);
  }
  console.log(`\nmedians of ${ROUNDS} rounds (load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}):`);
  const delivered = phases.flat().reduce((n, p) => n + p.delivered, 0);
  const expected = phases.flat().reduce((n, p) => n + p.expected, 0);
  targets.forEach((t, i) => {
    const col = phases.map((row) => row[i]!);
    const ratios = col.map((p, r) => p99(p) / p99(phases[r]![0]!));
    const vs = i === 0 ? "" : ` · p99 ÷ bare ${fmtRatio(median(ratios))}× (rounds: ${ratios.map((x) => x.toFixed(2)).join(", ")}; target ≤ 1.2×)`;
    const response = median(col.map((p) => percentile(p.responses, 50)));
    const receipt = median(col.map((p) => percentile(p.latencies, 50)));
    // The write's response should reach its client before the fan-out has reached most sockets.
    const waits = i === 0 ? "" : ` (receipt p50 ${fmt(receipt)} ms: the response ${response < receipt ? "does not wait" : "WAITS"} for the fan-out)`;
    console.log(`${t.name.padEnd(35)} p99 ${fmt(median(col.map(p99)))} ms${vs} · response p50 ${fmt(response)} ms${waits} · ${fmt(median(col.map((p) => p.cpuPerEvent)))} ms CPU/event`);
  });
  if (targets.length === 3) {
    const diffs = phases.map((row) => p99(row[2]!) - p99(row[1]!));
    console.log(`cross-process p99 − single-process p99: median ${fmt(median(diffs))} ms (rounds: ${diffs.map(fmt).join(", ")}; target ≤ 3 ms)`);
  }
  const connectRatios = (i: number) => connects.map((row) => row[i]!.ms / row[0]!.ms);
  console.log(
    `connect+subscribe ÷ bare (target ≤ 2×): first ${targets.slice(1).map((t) => `${fmtRatio(t.first.ms / bareTarget.first.ms)}×`).join(", ")}; again, median of ${ROUNDS} rounds ${targets
      .slice(1)
      .map((_, i) => `${fmtRatio(median(connectRatios(i + 1)))}× (rounds: ${connectRatios(i + 1).map(fmtRatio).join(", ")})`)
      .join(", ")} · server CPU per connection, median: ${targets.map((t, i) => `${t.name} ${median(connects.map((row) => row[i]!.cpuPerConnect)).toFixed(2)} ms`).join(", ")}`,
  );
  console.log(`delivery ${((100 * delivered) / expected).toFixed(2)}% of ${expected} (target 100%)`);
} finally {
  await exit.cleanup();
}
