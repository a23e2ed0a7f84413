// The bare Next.js server of `npm run bench`: Next's request handler on node:http, as
// server/main.ts hosts it, with nothing else (no front door, database, Socket.IO, jobs, logging).
// Env: BENCH_PORT (default any free port). Prints one JSON line {"port"} when ready.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";

const dir = path.dirname(fileURLToPath(import.meta.url));
const app = next({ dev: false, dir, hostname: "127.0.0.1" });
const handle = app.getRequestHandler();
await app.prepare();
const server = http.createServer((req, res) => void handle(req, res));
server.keepAliveTimeout = 65_000;
await new Promise((resolve) => server.listen(Number(process.env.BENCH_PORT ?? 0), "127.0.0.1", resolve));
console.log(JSON.stringify({ port: server.address().port }));

const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
