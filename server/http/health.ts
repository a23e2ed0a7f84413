import type { IncomingMessage, ServerResponse } from "node:http";

// Liveness and readiness, for load balancers, orchestrators and `npm run cluster` (docs/deploy.md):
//   GET /healthz  200 while the process answers at all (restart it when this fails).
//   GET /readyz   200 {"status":"ready"} when it can serve: the database answers;
//                 200 {"status":"degraded"} when Redis is down (HTTP and events inside this process
//                   go on; other processes miss them until Redis is back);
//                 503 {"status":"draining"} once shutdown began, 503 {"status":"unavailable"} when
//                   the database does not answer within DATABASE_PROBE_MS. Send no traffic on 503.
// Outside /api: they are for machines on the operator's side, unauthenticated, and say nothing
// beyond these states.

export type HealthProbe = {
  draining(): boolean;
  /** Resolves when the database answered a trivial query. */
  database(): Promise<unknown>;
  /** Redis: true up, false down, undefined when the server runs without it. */
  redis(): boolean | undefined;
};

export type Readiness = { status: "ready" | "degraded" | "draining" | "unavailable"; database: "up" | "down" | "unchecked"; redis: "up" | "down" | "none" };

const DATABASE_PROBE_MS = 2000;

export async function readiness(probe: HealthProbe, timeoutMs = DATABASE_PROBE_MS): Promise<Readiness> {
  const r = probe.redis();
  const redis = r === undefined ? "none" : r ? "up" : "down";
  if (probe.draining()) return { status: "draining", database: "unchecked", redis };
  let timer: NodeJS.Timeout | undefined;
  const database = await Promise.race([
    Promise.resolve()
      .then(() => probe.database())
      .then(() => "up" as const, () => "down" as const),
    new Promise<"down">((resolve) => (timer = setTimeout(() => resolve("down"), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (database === "down") return { status: "unavailable", database, redis };
  return { status: redis === "down" ? "degraded" : "ready", database, redis };
}

/** Answers /healthz and /readyz (GET or HEAD); true when it did. */
export function answerHealth(req: IncomingMessage, res: ServerResponse, probe: HealthProbe): boolean {
  const path = req.url?.split("?")[0];
  if (path !== "/healthz" && path !== "/readyz") return false;
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const send = (status: number, body: object) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "content-length": String(Buffer.byteLength(text)) });
    res.end(req.method === "HEAD" ? undefined : text);
  };
  if (path === "/healthz") {
    send(200, { status: "ok" });
    return true;
  }
  readiness(probe).then(
    (r) => send(r.status === "ready" || r.status === "degraded" ? 200 : 503, r),
    () => send(503, { status: "unavailable" }),
  );
  return true;
}
