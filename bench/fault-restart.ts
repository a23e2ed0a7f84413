// npx tsx bench/fault-restart.ts [--clients 1000] [--events 20] [--pg]
//
// Fault run (issue 18): the server process restarted under N connected Socket.IO clients, first
// gracefully (SIGTERM, as a deploy does), then with kill -9. Half the clients run the browser's
// subscription logic (lib/realtime-subscriptions.ts, as lib/realtime-client.ts uses it), half the
// CLI's (`todoSocket` of cli/watch.ts); all subscribe to one todo in the handshake. After each
// restart it measures how long until every client is subscribed again (by itself: nothing here
// asks it to), then publishes `events` todo_update requests and checks that every client got
// every one. Prints the figures; exits 1 when a client did not come back or missed an event.
// The e2e twin with 200 clients is in e2e/api/faults.spec.ts.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connectRestartClients } from "../server/testing/restart-clients.ts";
import { databaseOptions } from "./lib/args.ts";
import { createPgDatabase, ensureBuild, startBenchApp, type BenchApp } from "./lib/setup.ts";
import { exitCleanup, freePort } from "./lib/processes.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values: args } = parseArgs({
  options: {
    clients: { type: "string", default: "1000" },
    events: { type: "string", default: "20" },
    ...databaseOptions,
  },
  strict: true,
});
const CLIENTS = Number(args.clients);
const EVENTS = Number(args.events);
for (const [k, v] of [["clients", CLIENTS], ["events", EVENTS]] as const)
  if (!Number.isInteger(v) || v < 1) {
    console.error(`--${k} must be a positive integer`);
    process.exit(2);
  }

const exit = exitCleanup("the server");
const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = now() + ms;
  while (!ok()) {
    if (now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(20);
  }
}

let failed = false;
try {
  await ensureBuild(ROOT);
  console.log(`restart under sockets: ${CLIENTS} clients (half browser logic, half CLI), ${EVENTS} events after each restart; ${args.pg ? "PostgreSQL" : "embedded database"} (load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${os.cpus().length} cores)`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "todo-bench-restart-"));
  exit.cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = args.pg ? await createPgDatabase(args["pg-url"], "todo_bench_restart", exit.cleanups) : undefined;
  const port = await freePort();
  const opts = { root: ROOT, dataDir, databaseUrl, email: `restart-${Date.now()}@bench.test`, port };
  let app: BenchApp = await startBenchApp(opts);
  const apiKey = app.apiKey;
  const h = { "x-api-key": apiKey, "content-type": "application/json" };
  const project = (await (await fetch(`${app.base}/api/v1/projects`, { method: "POST", headers: h, body: JSON.stringify({ name: "Restart" }) })).json()) as { id: string };
  const todo = (await (await fetch(`${app.base}/api/v1/projects/${project.id}/todos`, { method: "POST", headers: h, body: JSON.stringify({ content: "watched" }) })).json()) as { id: string };

  const t0 = now();
  const clients = connectRestartClients(app.base, apiKey, todo.id, CLIENTS);
  const { live, received } = clients;
  exit.cleanups.push(() => clients.close());
  await until("every client subscribed", () => live.every((n) => n >= 1), 120_000);
  console.log(`connected and subscribed: ${CLIENTS} clients in ${((now() - t0) / 1000).toFixed(1)} s`);

  for (const [round, signal] of [[1, "SIGTERM"], [2, "SIGKILL"]] as const) {
    const down = now();
    app.child.proc.kill(signal);
    await app.child.exited;
    app = await startBenchApp({ ...opts, createUser: false });
    const up = now();
    let back = true;
    try {
      await until("every client back in the todo's room", () => live.every((n) => n >= round + 1), 120_000);
    } catch {
      back = false;
    }
    const resubscribed = live.filter((n) => n >= round + 1).length;
    const sent: string[] = [];
    for (let n = 0; n < EVENTS; n++) {
      const content = `after restart ${round} event ${n}`;
      const res = await fetch(`${app.base}/api/v1/todos/${todo.id}`, { method: "PUT", headers: h, body: JSON.stringify({ content }) });
      if (res.status !== 200) throw new Error(`todo_update answered ${res.status}`);
      sent.push(content);
    }
    const complete = () => received.filter((r) => sent.every((c) => r.has(c))).length;
    await until("every event delivered", () => complete() === CLIENTS, 15_000).catch(() => undefined);
    const missed = received.reduce((m, r) => m + sent.filter((c) => !r.has(c)).length, 0);
    console.log(
      `${signal.padEnd(7)} restart: server down→ready ${((up - down) / 1000).toFixed(1)} s; all resubscribed ${back ? `${((now() - up) / 1000).toFixed(1)} s after ready` : `NO (${resubscribed}/${CLIENTS})`}; ` +
        `${EVENTS} events after: ${complete()}/${CLIENTS} clients got all, ${missed} missed (target 0)`,
    );
    if (!back || missed > 0) failed = true;
  }
  console.log(failed ? "FAILED: a client did not come back or missed an event" : "targets met: every client reconnected and resubscribed by itself; 0 events missed");
} catch (err) {
  failed = true;
  if (!exit.interrupted) console.error(`\nfault run failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await exit.cleanup();
}
process.exit(exit.interrupted ? 130 : failed ? 1 : 0);
