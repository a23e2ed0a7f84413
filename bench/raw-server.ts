// The baseline of bench/project-get.ts: the database work of GET /api/v1/projects/{projectId}
// and nothing else, served by plain node:http. Same database layer (openDatabase: PGlite or
// PostgreSQL through Prisma), same queries as the app's hot path — keep them in step with:
//   server/auth/resolve.ts      resolveApiKey       key by sha256 hash (+ lastUsedAt once a minute),
//                                                   kept CREDENTIAL_TTL_MS in memory as the server's
//                                                   credential cache does (server/auth/credential-cache.ts)
//   server/services/access.ts   getProjectOrThrow   project row + the caller's share and team seat (accessInclude)
//   server/services/projects    getProject          toProjectFull, then JSON
// Not here, by design: Next's routing, the operation pipeline, zod, Web Request/Response.
// GET /constant answers the same constant JSON as the bare Next app's route (bench/next-bare).
//
// Env: BENCH_DATABASE_URL (postgresql://…) or BENCH_PGLITE_DIR (own PGlite directory).
// Seeds one user, API key and project, listens on 127.0.0.1 (BENCH_PORT, default any free port)
// and prints one JSON line {"port","apiKey","projectId"} when ready. SIGTERM/SIGINT: clean stop.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_KEY_PATTERN, newApiKey, sha256 } from "../server/auth/tokens.ts";
import { openDatabase } from "../server/db/open.ts";
import { CREDENTIAL_TTL_MS } from "../server/auth/credential-cache.ts";
import { accessInclude, roleFor } from "../server/services/access.ts";
import type { Caller } from "../server/auth/caller.ts";
import { toProjectFull } from "../server/services/projects/serialize.ts";

const database = await openDatabase({
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  dataDir: process.env.BENCH_PGLITE_DIR || "memory://",
});
const prisma = database.prisma;

// Seed (in the shared PostgreSQL database this sits beside the app's own user and project).
const apiKey = newApiKey();
const user = await prisma.user.create({ data: { email: `raw-${Date.now()}-${process.pid}@bench.invalid`, name: "Baseline" } });
await prisma.apiKey.create({ data: { userId: user.id, name: "bench", keyHash: sha256(apiKey), last4: apiKey.slice(-4), isDefault: true } });
const seeded = await prisma.project.create({ data: { ownerId: user.id, name: "Bench project", description: "baseline" } });

const LAST_USED_EVERY_MS = 60_000;
const CONSTANT = JSON.stringify({ ok: true, name: "constant", description: "a constant body for the bench", items: [1, 2, 3] });

const keys = new Map<string, { caller: Caller; until: number }>();

async function resolveKey(key: string): Promise<Caller | null> {
  if (!API_KEY_PATTERN.test(key)) return null;
  const hash = sha256(key);
  const hit = keys.get(hash);
  if (hit && hit.until > Date.now()) return hit.caller;
  const row = await prisma.apiKey.findUnique({
    where: { keyHash: hash },
    select: { id: true, lastUsedAt: true, user: { select: { id: true, email: true, name: true, isAdmin: true } } },
  });
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    void prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } }).catch(() => undefined);
  }
  const caller: Caller = { userId: row.user.id, email: row.user.email, name: row.user.name, isAdmin: row.user.isAdmin, credential: "apiKey", apiKeyId: row.id };
  keys.set(hash, { caller, until: Date.now() + CREDENTIAL_TTL_MS });
  return caller;
}

async function projectGet(key: string, projectId: string): Promise<{ status: number; body: unknown }> {
  const caller = await resolveKey(key);
  if (!caller) return { status: 401, body: { code: "UNAUTHORIZED" } };
  // getProjectOrThrow
  const project = await prisma.project.findUnique({ where: { id: projectId }, include: accessInclude(caller) });
  const role = project ? roleFor(caller, project) : null;
  if (!project || !role) return { status: 404, body: { code: "NOT_FOUND" } };
  return { status: 200, body: toProjectFull(project, role) };
}

const server = http.createServer((req, res) => {
  const send = (status: number, body: unknown) => {
    const json = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
    res.end(json);
  };
  if (req.method === "GET" && req.url === "/constant") {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(CONSTANT) });
    return void res.end(CONSTANT);
  }
  const m = req.method === "GET" ? /^\/projects\/([^/?]+)$/.exec(req.url ?? "") : null;
  if (!m) return send(404, { code: "NOT_FOUND" });
  const key = String(req.headers["x-api-key"] ?? "").trim();
  projectGet(key, decodeURIComponent(m[1]!)).then(
    (r) => send(r.status, r.body),
    (err: unknown) => {
      console.error(err);
      send(500, { code: "INTERNAL_SERVER_ERROR" });
    },
  );
});

await new Promise<void>((resolve) => server.listen(Number(process.env.BENCH_PORT ?? 0), "127.0.0.1", resolve));
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port, apiKey, projectId: seeded.id }));

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await database.close().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
