import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server as IoServer } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { Balancer } from "./balancer.ts";

type Backend = { name: string; http: HttpServer; io: IoServer; origin: string; ready: boolean; bodies: string[] };

const closers: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c().catch(() => undefined);
});

/** A process stand-in: names itself, echoes bodies, answers /readyz as told, serves Socket.IO. */
async function backend(name: string): Promise<Backend> {
  const b = { name, ready: true, bodies: [] as string[] } as Backend;
  b.http = createServer((req, res) => {
    if (req.url === "/readyz") {
      res.writeHead(b.ready ? 200 : 503).end();
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (body) b.bodies.push(body);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name, forwardedFor: req.headers["x-forwarded-for"] ?? null }));
    });
  });
  b.io = new IoServer(b.http, { path: "/socket.io" });
  b.io.on("connection", (s) => s.on("who", (ack: (n: string) => void) => ack(name)));
  await new Promise<void>((r) => b.http.listen(0, "127.0.0.1", r));
  b.origin = `http://127.0.0.1:${(b.http.address() as AddressInfo).port}`;
  closers.push(() => stop(b));
  return b;
}

/**
 * Stops a stand-in for good. Closing the server alone waits for its keep-alive connections, and
 * the balancer's health check (every 50 ms) keeps one busy whenever a check was in flight at the
 * close: the test then hung until the run's limit. So every connection is cut as well.
 */
function stop(b: Backend): Promise<unknown> {
  const closed = new Promise((r) => b.io.close(() => r(undefined)));
  b.http.closeAllConnections();
  return closed;
}

async function balancer(targets: string[]): Promise<{ lb: Balancer; url: string }> {
  const lb = new Balancer({ targets, checkEveryMs: 50 });
  await lb.listen(0);
  closers.push(() => lb.close());
  return { lb, url: `http://127.0.0.1:${(lb.server.address() as AddressInfo).port}` };
}

const who = async (url: string, init?: RequestInit) => ((await (await fetch(url, init)).json()) as { name: string; forwardedFor: string | null });

test("requests go round-robin to ready processes, with X-Forwarded-For set", async () => {
  const [a, b] = await Promise.all([backend("a"), backend("b")]);
  const { url } = await balancer([a.origin, b.origin]);
  const names = [];
  for (let i = 0; i < 6; i++) names.push((await who(`${url}/x`)).name);
  assert.deepEqual(names.sort(), ["a", "a", "a", "b", "b", "b"]);
  assert.equal((await who(`${url}/x`)).forwardedFor, "127.0.0.1");
  assert.equal((await who(`${url}/x`, { headers: { "x-forwarded-for": "10.9.9.9" } })).forwardedFor, "127.0.0.1", "a client's own X-Forwarded-For is replaced");
});

test("a process whose /readyz is not 200 gets no traffic until it is ready again", async () => {
  const [a, b] = await Promise.all([backend("a"), backend("b")]);
  const { lb, url } = await balancer([a.origin, b.origin]);
  b.ready = false;
  while (lb.readyTargets().length !== 1) await new Promise((r) => setTimeout(r, 10));
  for (let i = 0; i < 4; i++) assert.equal((await who(`${url}/x`)).name, "a");
  b.ready = true;
  while (lb.readyTargets().length !== 2) await new Promise((r) => setTimeout(r, 10));
  const names = new Set<string>();
  for (let i = 0; i < 4; i++) names.add((await who(`${url}/x`)).name);
  assert.deepEqual([...names].sort(), ["a", "b"]);
});

test("a refused connection is retried on another process, body and all, before the health check notices", async () => {
  const a = await backend("a");
  const gone = await backend("gone");
  const { url } = await balancer([gone.origin, a.origin]);
  await stop(gone);
  for (let i = 0; i < 4; i++) {
    const r = await who(`${url}/write`, { method: "POST", body: `payload-${i}`, headers: { "content-type": "text/plain" } });
    assert.equal(r.name, "a");
  }
  assert.deepEqual(a.bodies, ["payload-0", "payload-1", "payload-2", "payload-3"]);
});

test("Socket.IO over long-polling stays with the process that opened the session, then upgrades", { timeout: 20_000 }, async () => {
  const [a, b] = await Promise.all([backend("a"), backend("b")]);
  const { lb, url } = await balancer([a.origin, b.origin]);
  const sockets: Socket[] = [];
  try {
    // Several clients: without stickiness, polls after the handshake would hit the other process
    // ("Session ID unknown") and the connection would fail.
    for (let i = 0; i < 4; i++) sockets.push(connect(url, { path: "/socket.io", transports: ["polling", "websocket"], reconnection: false }));
    await Promise.all(sockets.map((s) => new Promise<void>((resolve, reject) => (s.once("connect", () => resolve()), s.once("connect_error", reject)))));
    const answers = await Promise.all(sockets.map((s) => s.timeout(5000).emitWithAck("who") as Promise<string>));
    assert.deepEqual([...new Set(answers)].sort(), ["a", "b"], "sessions spread over both processes");
    assert.equal(lb.sessionCount(), 4);
    await Promise.all(sockets.map((s) => new Promise<void>((resolve) => (s.io.engine.transport.name === "websocket" ? resolve() : s.io.engine.once("upgrade", () => resolve())))));
    const again = await Promise.all(sockets.map((s) => s.timeout(5000).emitWithAck("who") as Promise<string>));
    assert.deepEqual(again, answers, "each session still on its process after the upgrade");
  } finally {
    for (const s of sockets) s.close();
  }
});

test("WebSocket-only clients connect through the balancer", { timeout: 20_000 }, async () => {
  const [a, b] = await Promise.all([backend("a"), backend("b")]);
  const { url } = await balancer([a.origin, b.origin]);
  const s = connect(url, { path: "/socket.io", transports: ["websocket"], reconnection: false });
  try {
    await new Promise<void>((resolve, reject) => (s.once("connect", () => resolve()), s.once("connect_error", reject)));
    assert.ok(["a", "b"].includes(await (s.timeout(5000).emitWithAck("who") as Promise<string>)));
  } finally {
    s.close();
  }
});
