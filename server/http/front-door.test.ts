import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import { listenLocal } from "../testing/listen.ts";
import { CLIENT_IP_HEADER } from "./client-ip.ts";
import { contentSecurityPolicy, frontDoor } from "./front-door.ts";

// The front door in front of a stand-in for Next that echoes the headers it was handed.
let server: Server;
let base: string;
let trustProxy = false;

before(async () => {
  server = createServer((req, res) => {
    if (frontDoor(req, res, { dev: false, trustProxy })) return;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(req.headers));
  });
  base = await listenLocal(server);
});
after(() => new Promise<void>((r) => server.close(() => r())));

function call(method: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/anything`, { method, headers }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const FORWARDED = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", "x-forwarded-for": "10.9.8.7", forwarded: "for=10.9.8.7" };

describe("frontDoor", () => {
  test("client-sent X-Forwarded-* never reach the app unless TRUST_PROXY", async () => {
    trustProxy = false;
    const seen = JSON.parse((await call("GET", FORWARDED)).body) as Record<string, string>;
    for (const name of Object.keys(FORWARDED)) assert.equal(seen[name], undefined, name);
    trustProxy = true;
    const behindProxy = JSON.parse((await call("GET", FORWARDED)).body) as Record<string, string>;
    assert.equal(behindProxy["x-forwarded-host"], "evil.example");
    trustProxy = false;
  });

  test("the client's address for rate limits: the peer, never a client's claim; behind a trusted proxy the first X-Forwarded-For", async () => {
    trustProxy = false;
    const direct = JSON.parse((await call("GET", { ...FORWARDED, [CLIENT_IP_HEADER]: "1.2.3.4" })).body) as Record<string, string>;
    assert.match(direct[CLIENT_IP_HEADER]!, /127\.0\.0\.1|::1/);
    trustProxy = true;
    const behindProxy = JSON.parse((await call("GET", { "x-forwarded-for": "10.9.8.7, 10.0.0.1" })).body) as Record<string, string>;
    assert.equal(behindProxy[CLIENT_IP_HEADER], "10.9.8.7");
    trustProxy = false;
  });

  test("TRACE is 405 in the error shape before the app runs; GET passes with the security headers", async () => {
    const trace = await call("TRACE", { "x-request-id": "r-1" });
    assert.equal(trace.status, 405);
    assert.equal(trace.headers["x-request-id"], "r-1");
    assert.equal(trace.headers.allow, "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    assert.deepEqual(JSON.parse(trace.body), {
      message: "TRACE is not supported by this server",
      code: "METHOD_NOT_SUPPORTED",
      data: { allow: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] },
    });
    const get = await call("GET");
    assert.equal(get.status, 200);
    assert.equal(get.headers["content-security-policy"], contentSecurityPolicy(false));
    assert.equal(get.headers["x-content-type-options"], "nosniff");
    assert.equal(get.headers["referrer-policy"], "strict-origin-when-cross-origin");
  });

  test("the policy forbids framing; only development allows eval (hot reload)", () => {
    assert.match(contentSecurityPolicy(false), /frame-ancestors 'none'/);
    assert.doesNotMatch(contentSecurityPolicy(false), /unsafe-eval/);
    assert.match(contentSecurityPolicy(true), /script-src 'self' 'unsafe-inline' 'unsafe-eval'/);
  });
});
