// The baseline of bench/project-get.ts: the database work of GET /api/v1/projects/{projectId}
// and nothing else, served by plain node:http. Same database layer (openDatabase: PGlite or
// PostgreSQL through Prisma), same queries as the app's hot path — keep them in step with:
//   server/auth/resolve.ts      resolveApiKey       key by sha256 hash (+ lastUsedAt once a minute)
//   server/services/access.ts   getProjectOrThrow   project row + the caller's share, one query
//   server/services/projects    getProject          toProjectFull, then JSON
// Not here, by design: Next's routing, the operation pipeline, zod, Web Request/Response.
//
// Env: BENCH_DATABASE_URL (postgresql://…) or BENCH_PGLITE_DIR (own PGlite directory).
// Seeds one user, API key and project, listens on 127.0.0.1 (BENCH_PORT, default any free port)
// and prints one JSON line {"port","apiKey","projectId"} when ready. SIGTERM/SIGINT: clean stop.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_KEY_PATTERN, newApiKey, sha256 } from "../server/auth/tokens.ts";
import { openDatabase } from "../server/db/open.ts";
import type { ProjectRole } from "../server/services/access.ts";
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

async function projectGet(key: string, projectId: string): Promise<{ status: number; body: unknown }> {
  // resolveApiKey
  if (!API_KEY_PATTERN.test(key)) return { status: 401, body: { code: "UNAUTHORIZED" } };
  const row = await prisma.apiKey.findUnique({
    where: { keyHash: sha256(key) },
    select: { id: true, lastUsedAt: true, user: { select: { id: true, email: true, name: true, isAdmin: true } } },
  });
  if (!row) return { status: 401, body: { code: "UNAUTHORIZED" } };
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    void prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } }).catch(() => undefined);
  }
  const userId = row.user.id;
  // getProjectOrThrow
  const project = await prisma.project.findUnique({
    where: { id: projectId },
    include: { shares: { where: { userId }, select: { role: true } } },
  });
  const role: ProjectRole | undefined = !project ? undefined : project.ownerId === userId ? "owner" : project.shares[0]?.role;
  if (!project || !role) return { status: 404, body: { code: "NOT_FOUND" } };
  return { status: 200, body: toProjectFull(project, role) };
}

const server = http.createServer((req, res) => {
  const send = (status: number, body: unknown) => {
    const json = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
    res.end(json);
  };
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
