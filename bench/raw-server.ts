// The baseline of bench/project-get.ts: the database work of GET /api/v1/projects/{projectId}
// and nothing else (bench/lib/project-read.ts, which lists the app's functions it mirrors), served
// by plain node:http. Not here, by design: Next's routing, the operation pipeline, zod, Web
// Request/Response.
// GET /constant answers the same constant JSON as the bare Next app's route (bench/next-bare).
//
// Env: BENCH_DATABASE_URL (postgresql://…) or BENCH_PGLITE_DIR (own PGlite directory).
// Seeds one user, API key and project, listens on 127.0.0.1 (BENCH_PORT, default any free port)
// and prints one JSON line {"port","apiKey","projectId"} when ready. SIGTERM/SIGINT: clean stop.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { openProjectRead } from "./lib/project-read.ts";

const read = await openProjectRead({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir: process.env.BENCH_PGLITE_DIR, label: "raw" });
const CONSTANT = JSON.stringify({ ok: true, name: "constant", description: "a constant body for the bench", items: [1, 2, 3] });

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
  read.projectGet(key, decodeURIComponent(m[1]!)).then(
    (r) => send(r.status, r.body),
    (err: unknown) => {
      console.error(err);
      send(500, { code: "INTERNAL_SERVER_ERROR" });
    },
  );
});

await new Promise<void>((resolve) => server.listen(Number(process.env.BENCH_PORT ?? 0), "127.0.0.1", resolve));
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port, apiKey: read.apiKey, projectId: read.projectId }));

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await read.close().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
