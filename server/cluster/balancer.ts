import { request as httpRequest, createServer, type IncomingMessage, type Server, type ServerResponse, type OutgoingHttpHeaders } from "node:http";
import type { Duplex } from "node:stream";
import { answerClientError, refuseConnect } from "../http/front-door.ts";

// A small HTTP and WebSocket load balancer for `npm run cluster` (docs/deploy.md): the reference
// for what a production balancer in front of several server processes must do.
//   - Requests go round-robin to the processes whose /readyz answers 200 (checked every second).
//   - Socket.IO sessions are sticky: the balancer reads the session id from the handshake that
//     opens a long-polling session and sends every later request of that session (polls, posts
//     and the upgrade to a WebSocket) to the process that made it. A WebSocket-only client needs
//     no stickiness: its session lives on its one connection.
//   - A request whose connection to a process is refused (the process is gone or draining) never
//     reached it, so it is sent to the next process, whatever its method.
//   - X-Forwarded-For/-Proto/-Host are set, overwriting what a client sent (the balancer is the
//     edge), so processes started with TRUST_PROXY=1 see the client's address for per-IP limits
//     and the host it asked for.

export type BalancerOptions = {
  /** Origins of the server processes, e.g. http://127.0.0.1:3001. */
  targets: string[];
  /** How often each process's /readyz is asked (ms). */
  checkEveryMs?: number;
  /** A sticky session not seen for this long is forgotten (ms). */
  sessionIdleMs?: number;
};

type Target = { origin: string; url: URL; ready: boolean };

const SOCKET_PATH = "/socket.io/";
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"];

export class Balancer {
  readonly server: Server;
  private readonly targets: Target[];
  private next = 0;
  /** Socket.IO session id → its process, and when it was last used. */
  private readonly sessions = new Map<string, { target: Target; seen: number }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly sessionIdleMs: number;

  constructor(opts: BalancerOptions) {
    if (opts.targets.length === 0) throw new Error("a balancer needs at least one target");
    this.targets = opts.targets.map((origin) => ({ origin, url: new URL(origin), ready: true }));
    this.sessionIdleMs = opts.sessionIdleMs ?? 120_000;
    this.server = createServer((req, res) => this.web(req, res));
    this.server.on("upgrade", (req, socket, head) => this.upgrade(req, socket, head));
    // What the processes' own front door answers (405 for CONNECT, Node's status for what it
    // cannot parse), answered here the same way: such a request cannot be passed on.
    this.server.on("connect", refuseConnect);
    this.server.on("clientError", answerClientError);
    this.server.keepAliveTimeout = 65_000;
    const every = opts.checkEveryMs ?? 1000;
    this.timers.push(setInterval(() => void this.checkAll(), every).unref());
    this.timers.push(setInterval(() => this.forgetIdle(), Math.min(this.sessionIdleMs, 30_000)).unref());
  }

  /** Checks every process once, then listens. */
  async listen(port: number, hostname = "127.0.0.1"): Promise<void> {
    await this.checkAll();
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, hostname, resolve);
    });
  }

  /** Stops accepting; requests in flight get `graceMs` to finish, then every connection is cut. */
  async close(graceMs = 0): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    await Promise.race([closed, new Promise((r) => setTimeout(r, graceMs))]);
    this.server.closeAllConnections();
    await closed;
  }

  /** Which processes take traffic now (for tests and the cluster's log). */
  readyTargets(): string[] {
    return this.targets.filter((t) => t.ready).map((t) => t.origin);
  }

  /** Sticky sessions known (for tests). */
  sessionCount(): number {
    return this.sessions.size;
  }

  private async checkAll(): Promise<void> {
    await Promise.all(
      this.targets.map(async (t) => {
        const ready = await probe(new URL("/readyz", t.url));
        if (t.ready && !ready) for (const [sid, s] of this.sessions) if (s.target === t) this.sessions.delete(sid);
        t.ready = ready;
      }),
    );
  }

  private forgetIdle(): void {
    const cutoff = Date.now() - this.sessionIdleMs;
    for (const [sid, s] of this.sessions) if (s.seen < cutoff) this.sessions.delete(sid);
  }

  /** The next ready process after `tried` ones, round-robin; any process when none is ready. */
  private pick(tried: Set<Target>): Target | undefined {
    const pool = this.targets.filter((t) => t.ready && !tried.has(t));
    const candidates = pool.length > 0 ? pool : this.targets.filter((t) => !tried.has(t));
    if (candidates.length === 0) return undefined;
    return candidates[this.next++ % candidates.length];
  }

  private sticky(req: IncomingMessage): Target | undefined {
    const sid = socketSession(req);
    if (!sid) return undefined;
    const s = this.sessions.get(sid);
    if (!s) return undefined;
    s.seen = Date.now();
    return s.target;
  }

  private web(req: IncomingMessage, res: ServerResponse, tried = new Set<Target>(), body?: Buffer): void {
    const target = (tried.size === 0 ? this.sticky(req) : undefined) ?? this.pick(tried);
    if (!target) return unavailable(res);
    tried.add(target);
    const handshake = isPollingHandshake(req);
    const upstream = httpRequest(
      { host: target.url.hostname, port: target.url.port, method: req.method, path: req.url, headers: forwardedHeaders(req) },
      (up) => {
        const headers = withoutHopByHop(up.headers);
        if (!handshake || up.statusCode !== 200) {
          res.writeHead(up.statusCode ?? 502, up.statusMessage, headers);
          up.pipe(res);
          return;
        }
        // The opening poll of a Socket.IO session: small; read it for the session id.
        const chunks: Buffer[] = [];
        up.on("data", (c: Buffer) => chunks.push(c));
        up.on("end", () => {
          const text = Buffer.concat(chunks);
          const sid = /"sid":"([^"]+)"/.exec(text.toString("utf8"))?.[1];
          if (sid) this.sessions.set(sid, { target, seen: Date.now() });
          res.writeHead(up.statusCode ?? 200, up.statusMessage, headers);
          res.end(text);
        });
      },
    );
    upstream.on("error", (err: NodeJS.ErrnoException) => {
      // Refused: the process never saw the request, so another may take it (the body was kept).
      if (err.code === "ECONNREFUSED" && !res.headersSent) {
        target.ready = false;
        if (body !== undefined || bodyless(req)) return this.web(req, res, tried, body ?? Buffer.alloc(0));
        if (!req.readableEnded) return void req.once("end", () => this.web(req, res, tried, body ?? Buffer.alloc(0)));
      }
      if (!res.headersSent) badGateway(res);
      else res.destroy();
    });
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (body !== undefined) {
      upstream.end(body);
      return;
    }
    if (bodyless(req)) {
      upstream.end();
      req.resume();
      return;
    }
    // Keep the body while it streams, so a refused connection can be retried elsewhere.
    const kept: Buffer[] = [];
    req.on("data", (c: Buffer) => kept.push(c));
    req.on("end", () => (body = Buffer.concat(kept)));
    req.pipe(upstream);
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => socket.destroy());
    const target = this.sticky(req) ?? this.pick(new Set());
    if (!target) return void socket.end("HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\r\n");
    const upstream = httpRequest({ host: target.url.hostname, port: target.url.port, method: req.method, path: req.url, headers: { ...forwardedHeaders(req), connection: "Upgrade", upgrade: req.headers.upgrade ?? "websocket" } });
    upstream.on("upgrade", (up, upSocket, upHead) => {
      upSocket.on("error", () => socket.destroy());
      socket.on("close", () => upSocket.destroy());
      upSocket.on("close", () => socket.destroy());
      socket.write(responseHead(up, 101, "Switching Protocols"));
      if (upHead.length > 0) socket.write(upHead);
      if (head.length > 0) upSocket.write(head);
      upSocket.pipe(socket);
      socket.pipe(upSocket);
    });
    upstream.on("response", (up) => {
      // Refused to upgrade (e.g. 400 for an unknown session): pass the answer on and close.
      socket.write(responseHead(up, 502, ""));
      up.pipe(socket);
    });
    upstream.on("error", () => socket.end("HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n"));
    upstream.end();
  }
}

/** A process's answer's status line and headers, as written on a raw socket. */
function responseHead(up: IncomingMessage, status: number, reason: string): string {
  const lines = [`HTTP/1.1 ${up.statusCode ?? status} ${up.statusMessage ?? reason}`];
  for (let i = 0; i < up.rawHeaders.length; i += 2) lines.push(`${up.rawHeaders[i]}: ${up.rawHeaders[i + 1]}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

function bodyless(req: IncomingMessage): boolean {
  return (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") && !req.headers["content-length"] && !req.headers["transfer-encoding"];
}

/** The Socket.IO session a request belongs to (its `sid` query parameter), if any. */
export function socketSession(req: Pick<IncomingMessage, "url">): string | undefined {
  if (!req.url?.startsWith(SOCKET_PATH)) return undefined;
  return new URL(req.url, "http://x").searchParams.get("sid") ?? undefined;
}

function isPollingHandshake(req: IncomingMessage): boolean {
  if (req.method !== "GET" || !req.url?.startsWith(SOCKET_PATH)) return false;
  const q = new URL(req.url, "http://x").searchParams;
  return q.get("transport") === "polling" && !q.has("sid");
}

function forwardedHeaders(req: IncomingMessage): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = withoutHopByHop(req.headers);
  for (const name of Object.keys(headers)) if (name.startsWith("x-forwarded-") || name === "forwarded") delete headers[name];
  headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
  headers["x-forwarded-proto"] = "http";
  if (req.headers.host) headers["x-forwarded-host"] = req.headers.host;
  return headers;
}

function withoutHopByHop(headers: IncomingMessage["headers"]): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.includes(k)) out[k] = v;
  return out;
}

function probe(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const r = httpRequest(url, { method: "GET", timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    r.on("timeout", () => r.destroy());
    r.on("error", () => resolve(false));
    r.end();
  });
}

function answer(res: ServerResponse, status: number, body: object) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

const unavailable = (res: ServerResponse) => answer(res, 503, { message: "No server process is available; try again shortly", code: "SERVICE_UNAVAILABLE" });
const badGateway = (res: ServerResponse) => answer(res, 502, { message: "The server process did not answer", code: "BAD_GATEWAY" });
