// GET /constant: the same constant JSON as /constant of bench/raw-server.ts.
export const dynamic = "force-dynamic";

const BODY = JSON.stringify({ ok: true, name: "constant", description: "a constant body for the bench", items: [1, 2, 3] });

export function GET() {
  return new Response(BODY, { headers: { "content-type": "application/json" } });
}
