// The bare Next.js server of `npm run bench`: Next's request handler on node:http, as
// server/main.ts hosts it, with nothing else of ours (no front door, pipeline, Socket.IO, jobs,
// logging). Given a database (BENCH_DATABASE_URL, or its own PGlite directory in
// BENCH_PGLITE_DIR; run it through tsx then), it opens it with project_get's database work
// (bench/lib/project-read.ts) and hands that to the catch-all route app/api/v1/[...path] through
// globalThis, as the product's server hands its pipeline to its route handlers.
// Env: BENCH_PORT (default any free port). Prints one JSON line {"port"[,"apiKey","projectId"]} when ready.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";

const dir = path.dirname(fileURLToPath(import.meta.url));
let read;
if (process.env.BENCH_DATABASE_URL || process.env.BENCH_PGLITE_DIR) {
  const { openProjectRead } = await import("../lib/project-read.ts");
  read = await openProjectRead({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir: process.env.BENCH_PGLITE_DIR, label: "next-bare" });
  globalThis[Symbol.for("bench.next-bare.project-read")] = read;
}
const app = next({ dev: false, dir, hostname: "127.0.0.1" });
const handle = app.getRequestHandler();
await app.prepare();
const server = http.createServer((req, res) => void handle(req, res));
server.keepAliveTimeout = 65_000;
await new Promise((resolve) => server.listen(Number(process.env.BENCH_PORT ?? 0), "127.0.0.1", resolve));
console.log(JSON.stringify({ port: server.address().port, ...(read ? { apiKey: read.apiKey, projectId: read.projectId } : {}) }));

const stop = () => {
  server.closeAllConnections();
  server.close(async () => {
    await read?.close().catch(() => undefined);
    process.exit(0);
  });
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
