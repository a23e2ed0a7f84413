import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type TestInfo } from "@playwright/test";
import { bearer, randomEmail } from "../support/users";
import { connect, nextEvent } from "../support/sockets";
import { connectRestartClients, type RestartClients } from "../../server/testing/restart-clients";
import { serverNodeArgs } from "../../scripts/server-node.mjs";

// Issue 18, faults, each on a server process of the test's own (so it may be killed):
//   - kill -9 in the middle of 64 concurrent writers: after a restart every write that was
//     answered 2xx is there, as written (embedded database and PostgreSQL);
//   - Redis stopped under a running server and started again: HTTP keeps answering, /readyz says
//     "degraded" then "ready", events inside the process keep flowing;
//   - the server restarted (SIGTERM, then kill -9) under 200 connected sockets, half with the
//     browser's subscription logic and half with the CLI's: every one reconnects and resubscribes
//     by itself and gets every event published after (bench/fault-restart.ts: 1,000 sockets).
const run = promisify(execFile);
const base = Number(process.env.E2E_PORT_BASE ?? 3100);

test.describe.configure({ timeout: 240_000 });

type Server = { child: ChildProcess; url: string; log: string[] };

function startServer(port: number, env: Record<string, string>): Server {
  const child = spawn(process.execPath, serverNodeArgs(), {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), APP_URL: `http://localhost:${port}`, LOG_LEVEL: "warn", AUTH_SECRET: "faults-test-secret-0123456789abcdef", AGENT_STEP_MS: "20", E2E_RECORD_STATUSES: "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const log: string[] = [];
  child.stderr!.on("data", (d) => log.push(String(d)));
  return { child, url: `http://localhost:${port}`, log };
}

async function readyz(url: string): Promise<{ status: number; body: { status?: string; redis?: string } }> {
  try {
    const res = await fetch(`${url}/readyz`);
    return { status: res.status, body: (await res.json()) as { status?: string } };
  } catch {
    return { status: 0, body: {} };
  }
}

const waitReady = (s: Server) =>
  expect.poll(async () => (await readyz(s.url)).status, { message: `${s.url} ready (${s.log.join("").slice(-500)})`, timeout: 120_000 }).toBe(200);

async function stop(s: Server, signal: NodeJS.Signals) {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once("exit", r));
  s.child.kill(signal);
  await exited;
}

async function userOf(env: Record<string, string>): Promise<{ apiKey: string }> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/user-create.ts", "--email", randomEmail("faults")], { env: { ...process.env, LOG_LEVEL: "warn", ...env }, timeout: 60_000 });
  return JSON.parse(stdout) as { apiKey: string };
}

function databaseOf(info: TestInfo): string {
  return (info.project.metadata?.databaseUrl as string | undefined) ?? "";
}

test("kill -9 during 64 concurrent writers: after a restart every acknowledged write is there, as written", async ({}, info) => {
  const pg = databaseOf(info);
  const port = base + (pg ? 25 : 24);
  const dataDir = await mkdtemp(path.join(tmpdir(), "todo-e2e-faults-"));
  // Limits lifted: 64 writers on one key would otherwise mostly hear 429.
  const env = { DATA_DIR: dataDir, DATABASE_URL: pg, REDIS_URL: "", RATE_LIMIT_SCALE: "1000" };
  let server = startServer(port, env);
  try {
    await waitReady(server);
    const { apiKey } = await userOf(env);
    const h = { ...bearer(apiKey), "content-type": "application/json" };
    const project = (await (await fetch(`${server.url}/api/v1/projects`, { method: "POST", headers: h, body: JSON.stringify({ name: "Under fire" }) })).json()) as { id: string };

    // 64 writers, each creating todos one after another until its connection fails.
    const acked = new Map<string, string>();
    const refused: number[] = [];
    const writer = async (w: number) => {
      for (let n = 0; ; n++) {
        const content = `writer ${w} todo ${n}`;
        try {
          const res = await fetch(`${server.url}/api/v1/projects/${project.id}/todos`, { method: "POST", headers: h, body: JSON.stringify({ content }) });
          if (res.status >= 200 && res.status < 300) acked.set(((await res.json()) as { id: string }).id, content);
          else refused.push(res.status);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 64 }, (_, w) => writer(w));
    await expect.poll(() => acked.size, { message: "writes under way", timeout: 120_000 }).toBeGreaterThanOrEqual(150);
    server.child.kill("SIGKILL");
    await Promise.all(writers);
    expect(refused, "no write was refused before the kill").toEqual([]);

    server = startServer(port, env);
    await waitReady(server);
    const stored = new Map<string, string>();
    for (let cursor: number | null = null; ; ) {
      const q: string = cursor === null ? "" : `&cursor=${cursor}`;
      const page = (await (await fetch(`${server.url}/api/v1/projects/${project.id}/todos?limit=100${q}`, { headers: h })).json()) as { items: { id: string; content?: string; title?: string }[]; nextCursor: number | null };
      for (const t of page.items) stored.set(t.id, t.content ?? t.title ?? "");
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    const missing = [...acked.keys()].filter((id) => !stored.has(id));
    expect(missing, `acknowledged but gone after kill -9 (${acked.size} acknowledged, ${stored.size} stored)`).toEqual([]);
    // As written: read each back whole.
    for (const [id, content] of [...acked].slice(0, 40)) {
      const todo = (await (await fetch(`${server.url}/api/v1/todos/${id}`, { headers: h })).json()) as { messages: { role: string; content: string }[] };
      expect(todo.messages.find((m) => m.role === "user")?.content).toBe(content);
    }
  } finally {
    await stop(server, "SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
});

test("Redis stopped under a running server and started again: HTTP answers, /readyz degrades and recovers, events keep flowing in the process", async ({}, info) => {
  const pg = databaseOf(info);
  test.skip(!pg, "the production configuration (PostgreSQL and Redis) only");
  const redisPort = base + 26;
  const startRedis = () => spawn("redis-server", ["--port", String(redisPort), "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"], { stdio: "ignore" });
  let redis = startRedis();
  const dataDir = await mkdtemp(path.join(tmpdir(), "todo-e2e-redis-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: pg, REDIS_URL: `redis://127.0.0.1:${redisPort}`, REDIS_PREFIX: `faults-${Date.now()}` };
  const server = startServer(base + 27, env);
  try {
    await waitReady(server);
    expect((await readyz(server.url)).body).toMatchObject({ status: "ready", redis: "up" });
    const { apiKey } = await userOf(env);
    const h = { ...bearer(apiKey), "content-type": "application/json" };
    const project = (await (await fetch(`${server.url}/api/v1/projects`, { method: "POST", headers: h, body: JSON.stringify({ name: "Redis" }) })).json()) as { id: string };
    const socket = await connect(server.url, { token: apiKey });
    try {
      const sub = await fetch(`${server.url}/api/v1/projects/${project.id}/subscribe`, { method: "POST", headers: { ...h, "x-socket-id": socket.id! } });
      expect(sub.status).toBe(200);

      const gone = new Promise((r) => redis.once("exit", r));
      redis.kill("SIGKILL");
      await gone;
      await expect.poll(async () => (await readyz(server.url)).body.status, { timeout: 30_000 }).toBe("degraded");

      // HTTP keeps answering (limits fall back to memory), and this process's sockets hear of it.
      const event = nextEvent<{ data: { project: { name: string } } }>(socket, "project.updated", (e) => e.data.project.name === "Redis down");
      const put = await fetch(`${server.url}/api/v1/projects/${project.id}`, { method: "PUT", headers: h, body: JSON.stringify({ name: "Redis down" }) });
      expect(put.status, await put.text()).toBe(200);
      expect((await fetch(`${server.url}/api/v1/projects/${project.id}`, { headers: h })).status).toBe(200);
      await event;

      redis = startRedis();
      await expect.poll(async () => (await readyz(server.url)).body.status, { timeout: 60_000 }).toBe("ready");
      const again = nextEvent<{ data: { project: { name: string } } }>(socket, "project.updated", (e) => e.data.project.name === "Redis back");
      expect((await fetch(`${server.url}/api/v1/projects/${project.id}`, { method: "PUT", headers: h, body: JSON.stringify({ name: "Redis back" }) })).status).toBe(200);
      await again;
    } finally {
      socket.disconnect();
    }
  } finally {
    await stop(server, "SIGTERM");
    redis.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
});

test("a server restarted under 200 sockets (SIGTERM, then kill -9): the browser's and the CLI's clients reconnect and resubscribe by themselves and miss no later event", async ({}, info) => {
  const pg = databaseOf(info);
  const port = base + (pg ? 27 : 26);
  const dataDir = await mkdtemp(path.join(tmpdir(), "todo-e2e-restart-"));
  // 200 handshakes from one address in seconds: the per-IP handshake limit is lifted.
  const env = { DATA_DIR: dataDir, DATABASE_URL: pg, REDIS_URL: "", RATE_LIMIT_SCALE: "1000" };
  let server = startServer(port, env);
  let clients: RestartClients | undefined;
  try {
    await waitReady(server);
    const { apiKey } = await userOf(env);
    const h = { ...bearer(apiKey), "content-type": "application/json" };
    const project = (await (await fetch(`${server.url}/api/v1/projects`, { method: "POST", headers: h, body: JSON.stringify({ name: "Restarted" }) })).json()) as { id: string };
    const todo = (await (await fetch(`${server.url}/api/v1/projects/${project.id}/todos`, { method: "POST", headers: h, body: JSON.stringify({ content: "watched" }) })).json()) as { id: string };

    const N = 200;
    clients = connectRestartClients(server.url, apiKey, todo.id, N);
    const { live, received } = clients;
    const allLive = (times: number) =>
      expect.poll(() => live.filter((n) => n >= times).length, { message: `clients subscribed ${times} time(s)`, timeout: 90_000 }).toBe(N);
    await allLive(1);

    for (const [round, signal] of [[1, "SIGTERM"], [2, "SIGKILL"]] as const) {
      await stop(server, signal);
      server = startServer(port, env);
      await waitReady(server);
      // Every client is back in the todo's room without anyone asking it to.
      await allLive(round + 1);
      const sent: string[] = [];
      for (let n = 0; n < 10; n++) {
        const content = `after restart ${round} (${signal}) event ${n}`;
        const res = await fetch(`${server.url}/api/v1/todos/${todo.id}`, { method: "PUT", headers: h, body: JSON.stringify({ content }) });
        expect(res.status).toBe(200);
        sent.push(content);
      }
      await expect
        .poll(() => received.filter((r) => sent.every((c) => r.has(c))).length, { message: `clients that got all ${sent.length} events of round ${round}`, timeout: 30_000 })
        .toBe(N);
    }
  } finally {
    clients?.close();
    await stop(server, "SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
});
