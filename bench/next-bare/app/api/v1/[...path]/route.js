// GET /api/v1/projects/{projectId}: project_get's database work (bench/lib/project-read.ts) behind
// a catch-all route handler, as the product's app/api/v1/[...path]/route.ts hands every request to
// the server's pipeline through globalThis. Nothing of the product's pipeline: no zod, rate
// limiter, front door or Socket.IO. Present only when bench/next-bare/server.mjs was given a
// database (BENCH_DATABASE_URL or BENCH_PGLITE_DIR).
export const dynamic = "force-dynamic";

const READ = Symbol.for("bench.next-bare.project-read");
const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export async function GET(request) {
  const read = globalThis[READ];
  if (!read) return json(503, { code: "NO_DATABASE" });
  const m = /^\/api\/v1\/projects\/([^/?]+)$/.exec(new URL(request.url).pathname);
  if (!m) return json(404, { code: "NOT_FOUND" });
  const r = await read.projectGet((request.headers.get("x-api-key") ?? "").trim(), decodeURIComponent(m[1]));
  return json(r.status, r.body);
}
