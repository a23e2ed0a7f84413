import { afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import type { Base, Caller } from "../auth/caller.ts";
import { setLogLevel } from "../log.ts";
import { ANY_CREDENTIAL, USER_CREDENTIAL, defineOperation } from "./define.ts";
import { MAX_BODY_BYTES } from "./body.ts";
import { ApiError } from "./errors.ts";
import { createPipeline, type ResolveCaller } from "./pipeline.ts";
import { Router } from "./router.ts";
import { readResponse } from "../testing/http.ts";

const APP = "http://app.test";

// ---------- fake callers ----------

const user: Caller = { credential: "apiKey", userId: "u_1", email: "ada@example.com", name: "Ada", isAdmin: false, apiKeyId: "k_1" };
const admin: Caller = { ...user, userId: "u_admin", email: "root@example.com", isAdmin: true };

const resolverCalls: { base: Base; credential: string | null }[] = [];
let resolverThrows = false;
const resolveCaller: ResolveCaller = async (base, headers) => {
  if (resolverThrows) throw new Error("database unavailable");
  const credential = headers.get("x-api-key") ?? headers.get("authorization") ?? headers.get("cookie");
  resolverCalls.push({ base, credential });
  switch (base) {
    case "api":
      if (headers.get("x-api-key") === "user-key") return user;
      if (headers.get("x-api-key") === "admin-key") return admin;
      return null;
    case "cookie":
      return headers.get("cookie")?.includes("authjs.session-token=good") ? { ...user, credential: "session", apiKeyId: undefined } : null;
    case "dst":
      return headers.get("authorization") === "Bearer good-device" ? { ...user, credential: "device", apiKeyId: undefined, tokenId: "t_1" } : null;
  }
};

// ---------- fake operations ----------

type Call = { op: string; params: unknown; query: unknown; body: unknown; socketId: string | undefined; caller: Caller | null; requestId: string };
const calls: Call[] = [];
function record(op: string, ctx: { params: unknown; query: unknown; body: unknown; socketId: string | undefined; caller: Caller | null; requestId: string }) {
  calls.push({ op, params: ctx.params, query: ctx.query, body: ctx.body, socketId: ctx.socketId, caller: ctx.caller, requestId: ctx.requestId });
}

const ZThing = z.object({ id: z.string(), name: z.string() });
const ZThingParams = z.object({ thingId: z.string().min(3, "too short") });

let nextThrow: unknown;
let nextResult: unknown;

const ops = [
  defineOperation({
    id: "thing_get",
    method: "GET",
    path: "/things/{thingId}",
    summary: "get",
    tag: "T",
    auth: ANY_CREDENTIAL,
    params: ZThingParams,
    query: z.object({ limit: z.coerce.number().int().min(1).optional() }),
    response: ZThing,
    handler: async (ctx) => {
      record("thing_get", ctx);
      // keyHash is not in ZThing: the response schema must strip it.
      return { id: ctx.params.thingId, name: "Thing", keyHash: "SECRET-HASH-VALUE" } as z.input<typeof ZThing>;
    },
  }),
  defineOperation({
    id: "thing_update",
    method: "PUT",
    path: "/things/{thingId}",
    summary: "update",
    tag: "T",
    auth: ANY_CREDENTIAL,
    params: ZThingParams,
    body: z.object({ thingId: z.string(), name: z.string().min(1) }),
    response: ZThing,
    handler: async (ctx) => {
      record("thing_update", ctx);
      return { id: ctx.params.thingId, name: ctx.body.name };
    },
  }),
  defineOperation({
    id: "thing_delete",
    method: "DELETE",
    path: "/things/{thingId}",
    summary: "delete",
    tag: "T",
    auth: ANY_CREDENTIAL,
    params: ZThingParams,
    body: z.object({ thingId: z.string(), socketId: z.string().optional() }),
    response: z.null(),
    handler: async (ctx) => {
      record("thing_delete", ctx);
      return null;
    },
  }),
  defineOperation({
    id: "thing_create",
    method: "POST",
    path: "/things",
    summary: "create",
    tag: "T",
    auth: ANY_CREDENTIAL,
    body: z.object({ name: z.string().min(1, "must not be empty"), socketId: z.string().optional() }),
    response: ZThing,
    handler: async (ctx) => {
      record("thing_create", ctx);
      return { id: "new", name: ctx.body.name };
    },
  }),
  defineOperation({
    id: "admin_stats",
    method: "GET",
    path: "/admin/stats",
    summary: "stats",
    tag: "T",
    auth: USER_CREDENTIAL,
    admin: true,
    response: z.object({ users: z.number() }),
    handler: async (ctx) => {
      record("admin_stats", ctx);
      return { users: 3 };
    },
  }),
  defineOperation({
    id: "device_ping",
    method: "GET",
    path: "/device/ping",
    summary: "device only",
    tag: "T",
    auth: ["device"],
    response: z.object({ pong: z.literal(true) }),
    handler: async (ctx) => {
      record("device_ping", ctx);
      return { pong: true as const };
    },
  }),
  defineOperation({
    id: "public_ping",
    method: "GET",
    path: "/ping",
    summary: "public",
    tag: "T",
    auth: "none",
    response: z.object({ email: z.string().nullable() }),
    handler: async (ctx) => {
      record("public_ping", ctx);
      return { email: ctx.caller?.email ?? null };
    },
  }),
  defineOperation({
    id: "public_post",
    method: "POST",
    path: "/public-post",
    summary: "public write",
    tag: "T",
    auth: "none",
    response: z.null(),
    handler: async (ctx) => {
      record("public_post", ctx);
      return null;
    },
  }),
  defineOperation({
    id: "thing_mint",
    method: "GET",
    path: "/things-minted",
    summary: "a GET that creates something when missing",
    tag: "T",
    auth: ANY_CREDENTIAL,
    changesState: true,
    response: z.null(),
    handler: async (ctx) => {
      record("thing_mint", ctx);
      return null;
    },
  }),
  defineOperation({
    id: "scripted",
    method: "GET",
    path: "/scripted",
    summary: "throws nextThrow or returns nextResult",
    tag: "T",
    auth: ANY_CREDENTIAL,
    response: z.object({ ok: z.boolean() }).nullable(),
    handler: async (ctx) => {
      record("scripted", ctx);
      if (nextThrow !== undefined) throw nextThrow;
      return nextResult as { ok: boolean } | null;
    },
  }),
];

const handle = createPipeline(new Router(ops), resolveCaller, APP);

type Init = { method?: string; headers?: Record<string, string>; body?: BodyInit | null; json?: unknown; duplex?: "half" };

function req(path: string, init: Init = {}): Request {
  const headers: Record<string, string> = { ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`${APP}${path}`, { method: init.method ?? "GET", headers, body, ...(init.duplex ? { duplex: init.duplex } : {}) } as RequestInit);
}

const apiUser = { "x-api-key": "user-key" };

async function call(base: Base, path: string, init: Init = {}) {
  const res = await handle(base, req(path, init));
  return { res, ...(await readResponse(res)) };
}

function callsOf(op: string): Call[] {
  return calls.filter((c) => c.op === op);
}

before(() => setLogLevel("silent"));
afterEach(() => {
  calls.length = 0;
  resolverCalls.length = 0;
  resolverThrows = false;
  nextThrow = undefined;
  nextResult = undefined;
});

// ---------- routing ----------

describe("routing", () => {
  test("unknown path → 404 NOT_FOUND", async () => {
    const r = await call("api", "/api/v1/nope", { headers: apiUser });
    assert.equal(r.status, 404);
    assert.equal(r.json.code, "NOT_FOUND");
    assert.match(r.json.message, /GET \/api\/v1\/nope/);
    assert.equal(resolverCalls.length, 0, "no credential lookup for an unknown path");
  });

  test("known path, unsupported method → 405 with Allow header and data.allow", async () => {
    const r = await call("api", "/api/v1/things/abc", { method: "PATCH", headers: apiUser });
    assert.equal(r.status, 405);
    assert.equal(r.json.code, "METHOD_NOT_SUPPORTED");
    const allow = r.res.headers.get("allow");
    assert.ok(allow, "Allow header missing");
    assert.deepEqual(allow.split(/,\s*/).sort(), ["DELETE", "GET", "PUT"]);
    assert.deepEqual([...r.json.data.allow].sort(), ["DELETE", "GET", "PUT"]);
  });

  test("HEAD is served by the GET operation", async () => {
    const r = await call("api", "/api/v1/things/abc", { method: "HEAD", headers: apiUser });
    assert.equal(r.status, 200);
    assert.equal(callsOf("thing_get").length, 1);
  });

  test("an operation not served on this base → 404, before any credential lookup", async () => {
    const onApi = await call("api", "/api/v1/device/ping", { headers: apiUser });
    assert.equal(onApi.status, 404);
    assert.equal(onApi.json.code, "NOT_FOUND");
    assert.match(onApi.json.message, /device_ping is not served under \/api\/v1; use \/dst\/v1$/);
    const onCookie = await call("cookie", "/cookie/v1/device/ping", { headers: { cookie: "authjs.session-token=good" } });
    assert.equal(onCookie.status, 404);
    const onDstAdmin = await call("dst", "/dst/v1/admin/stats", { headers: { authorization: "Bearer good-device" } });
    assert.equal(onDstAdmin.status, 404);
    assert.equal(resolverCalls.length, 0);
    assert.equal(calls.length, 0);

    const served = await call("dst", "/dst/v1/device/ping", { headers: { authorization: "Bearer good-device" } });
    assert.equal(served.status, 200);
    assert.deepEqual(served.json, { pong: true });
  });

  test(
    "405 on a base lists only methods served on that base (a path with none served there is 404)",
    async () => {
      const r = await call("api", "/api/v1/device/ping", { method: "POST", headers: apiUser });
      // No method of /device/ping is served under /api/v1, so this resource does not exist there.
      assert.equal(r.status, 404, `got ${r.status} allow=${r.res.headers.get("allow")}`);
    },
  );
});

// ---------- credentials and access ----------

describe("credentials", () => {
  test("no credential → 401 UNAUTHORIZED; handler not called", async () => {
    const r = await call("api", "/api/v1/things/abc");
    assert.equal(r.status, 401);
    assert.equal(r.json.code, "UNAUTHORIZED");
    assert.equal(calls.length, 0);
  });

  test("an invalid credential → 401", async () => {
    const r = await call("api", "/api/v1/things/abc", { headers: { "x-api-key": "wrong" } });
    assert.equal(r.status, 401);
    assert.deepEqual(resolverCalls, [{ base: "api", credential: "wrong" }]);
  });

  test("the resolver is asked for the request's base", async () => {
    await call("dst", "/dst/v1/things/abc", { headers: { authorization: "Bearer good-device" } });
    await call("cookie", "/cookie/v1/things/abc", { headers: { cookie: "authjs.session-token=good" } });
    assert.deepEqual(
      resolverCalls.map((c) => c.base),
      ["dst", "cookie"],
    );
    assert.deepEqual(
      callsOf("thing_get").map((c) => c.caller?.credential),
      ["device", "session"],
    );
  });

  test("admin-only operation: 403 FORBIDDEN for a normal user, 200 for an administrator", async () => {
    const denied = await call("api", "/api/v1/admin/stats", { headers: apiUser });
    assert.equal(denied.status, 403);
    assert.equal(denied.json.code, "FORBIDDEN");
    assert.equal(callsOf("admin_stats").length, 0);
    const allowed = await call("api", "/api/v1/admin/stats", { headers: { "x-api-key": "admin-key" } });
    assert.equal(allowed.status, 200);
    assert.deepEqual(allowed.json, { users: 3 });
  });

  test("auth none: caller passed when the credential resolves, null otherwise, and a failing resolver is not fatal", async () => {
    const anon = await call("api", "/api/v1/ping");
    assert.deepEqual([anon.status, anon.json], [200, { email: null }]);
    const known = await call("api", "/api/v1/ping", { headers: apiUser });
    assert.deepEqual([known.status, known.json], [200, { email: "ada@example.com" }]);
    resolverThrows = true;
    const broken = await call("api", "/api/v1/ping", { headers: apiUser });
    assert.deepEqual([broken.status, broken.json], [200, { email: null }]);
  });

  test("a resolver failure on an authenticated operation is a generic 500", async () => {
    resolverThrows = true;
    const r = await call("api", "/api/v1/things/abc", { headers: apiUser });
    assert.equal(r.status, 500);
    assert.deepEqual(r.json, { message: "Internal server error", code: "INTERNAL_SERVER_ERROR" });
    assert.doesNotMatch(r.text, /database unavailable/);
  });
});

// ---------- same-origin checks on the cookie base ----------

describe("cookie base: state-changing requests must be same-origin", () => {
  const cookie = { cookie: "authjs.session-token=good" };
  const body = { name: "x" };

  test("POST without Origin or Referer → 403, handler not called", async () => {
    const r = await call("cookie", "/cookie/v1/things", { method: "POST", headers: cookie, json: body });
    assert.equal(r.status, 403);
    assert.equal(r.json.code, "FORBIDDEN");
    assert.equal(calls.length, 0);
  });

  test("POST with a foreign Origin → 403 (also with a same-origin Referer beside it)", async () => {
    const cases: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "http://app.test.evil.example" },
      { origin: "http://app.test:8080" },
      { origin: "https://app.test" },
      { origin: "null" },
      { origin: "https://evil.example", referer: `${APP}/projects` },
    ];
    for (const headers of cases) {
      const r = await call("cookie", "/cookie/v1/things", { method: "POST", headers: { ...cookie, ...headers }, json: body });
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.equal(r.json.code, "FORBIDDEN");
    }
    assert.equal(calls.length, 0);
  });

  test("a foreign Referer (no Origin) → 403", async () => {
    const r = await call("cookie", "/cookie/v1/things/abc", { method: "DELETE", headers: { ...cookie, referer: "https://evil.example/page" } });
    assert.equal(r.status, 403);
  });

  test("POST with the app's Origin, or only the app's Referer → 200", async () => {
    const byOrigin = await call("cookie", "/cookie/v1/things", { method: "POST", headers: { ...cookie, origin: APP }, json: body });
    assert.equal(byOrigin.status, 200, byOrigin.text);
    const byReferer = await call("cookie", "/cookie/v1/things", { method: "POST", headers: { ...cookie, referer: `${APP}/projects/p1?x=1` }, json: body });
    assert.equal(byReferer.status, 200, byReferer.text);
    assert.equal(callsOf("thing_create").length, 2);
  });

  test("the forwarded host counts as same-origin only behind a trusted proxy (TRUST_PROXY)", async () => {
    const forwarded = { ...cookie, origin: "https://todo.example.org", "x-forwarded-host": "todo.example.org", "x-forwarded-proto": "https" };
    // Without TRUST_PROXY the client wrote these headers itself: a cross-site page's claim, refused.
    const claimed = await call("cookie", "/cookie/v1/things", { method: "POST", headers: forwarded, json: body });
    assert.equal(claimed.status, 403, claimed.text);
    assert.equal(calls.length, 0);
    const behindProxy = createPipeline(new Router(ops), resolveCaller, APP, { trustProxy: true });
    const res = await behindProxy("cookie", req("/cookie/v1/things", { method: "POST", headers: forwarded, json: body }));
    assert.equal(res.status, 200, await res.text());
    // The first of a proxy chain's values is the client-facing one.
    const chained = await behindProxy("cookie", req("/cookie/v1/things", { method: "POST", headers: { ...forwarded, "x-forwarded-host": "todo.example.org, internal:8080", "x-forwarded-proto": "https,http" }, json: body }));
    assert.equal(chained.status, 200, await chained.text());
  });

  test("a GET that changes state (changesState) is checked like a write; other GETs are not", async () => {
    const minted = await call("cookie", "/cookie/v1/things-minted", { headers: cookie });
    assert.equal(minted.status, 403, minted.text);
    const crossSite = await call("cookie", "/cookie/v1/things-minted", { headers: { ...cookie, origin: "https://evil.example" } });
    assert.equal(crossSite.status, 403, crossSite.text);
    assert.equal(calls.length, 0);
    const own = await call("cookie", "/cookie/v1/things-minted", { headers: { ...cookie, referer: `${APP}/settings/api-keys` } });
    assert.equal(own.status, 200, own.text);
    assert.equal(callsOf("thing_mint").length, 1);
  });

  test("PUT and DELETE are checked too, and so are auth-none operations", async () => {
    const put = await call("cookie", "/cookie/v1/things/abc", { method: "PUT", headers: cookie, json: { name: "n" } });
    assert.equal(put.status, 403);
    const del = await call("cookie", "/cookie/v1/things/abc", { method: "DELETE", headers: cookie });
    assert.equal(del.status, 403);
    const pub = await call("cookie", "/cookie/v1/public-post", { method: "POST" });
    assert.equal(pub.status, 403);
    assert.equal(calls.length, 0);
  });

  test("reads need no Origin, and other bases are not checked", async () => {
    const get = await call("cookie", "/cookie/v1/things/abc", { headers: cookie });
    assert.equal(get.status, 200);
    const apiPost = await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, origin: "https://evil.example" }, json: body });
    assert.equal(apiPost.status, 200);
    const dstPost = await call("dst", "/dst/v1/things", { method: "POST", headers: { authorization: "Bearer good-device" }, json: body });
    assert.equal(dstPost.status, 200);
  });
});

// ---------- input validation ----------

describe("input validation", () => {
  test("invalid path parameter → 400 with issues under path.", async () => {
    const r = await call("api", "/api/v1/things/ab", { headers: apiUser });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, "BAD_REQUEST");
    assert.deepEqual(
      r.json.data.issues.map((i: { path: string }) => i.path),
      ["path.thingId"],
    );
    assert.equal(r.json.data.issues[0].message, "too short");
    assert.match(r.json.message, /^Invalid path: path\.thingId: too short/);
    assert.equal(calls.length, 0);
  });

  test("invalid query → 400 with issues under query.; valid query is coerced", async () => {
    const bad = await call("api", "/api/v1/things/abc?limit=0", { headers: apiUser });
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.json.data.issues.map((i: { path: string }) => i.path),
      ["query.limit"],
    );
    const notNumber = await call("api", "/api/v1/things/abc?limit=lots", { headers: apiUser });
    assert.equal(notNumber.status, 400);
    assert.equal(calls.length, 0);

    const ok = await call("api", "/api/v1/things/abc?limit=5&ignored=1", { headers: apiUser });
    assert.equal(ok.status, 200);
    assert.deepEqual(callsOf("thing_get")[0]!.query, { limit: 5 });
    assert.deepEqual(callsOf("thing_get")[0]!.params, { thingId: "abc" });
  });

  test("invalid body → 400 with issues under body., each with a code", async () => {
    const r = await call("api", "/api/v1/things", { method: "POST", headers: apiUser, json: { name: "", socketId: 7 } });
    assert.equal(r.status, 400);
    const issues = r.json.data.issues as { path: string; message: string; code: string }[];
    assert.deepEqual(issues.map((i) => i.path).sort(), ["body.name", "body.socketId"]);
    assert.ok(issues.every((i) => typeof i.code === "string" && i.code.length > 0));
    assert.equal(issues.find((i) => i.path === "body.name")!.message, "must not be empty");
    assert.equal(calls.length, 0);
  });

  test("a body that is not an object → 400 with the issue at body", async () => {
    const r = await call("api", "/api/v1/things", { method: "POST", headers: apiUser, json: [1, 2] });
    assert.equal(r.status, 400);
    assert.deepEqual(
      r.json.data.issues.map((i: { path: string }) => i.path),
      ["body"],
    );
  });

  test("malformed JSON → 400 BAD_REQUEST", async () => {
    const r = await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "content-type": "application/json" }, body: '{"name": "x",' });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, "BAD_REQUEST");
    assert.match(r.json.message, /Malformed JSON/);
    assert.deepEqual(r.json.data.issues, [{ path: "body", message: "not valid JSON", code: "invalid_json" }]);
    assert.equal(calls.length, 0);
  });

  test("a UTF-8 byte order mark before the JSON is ignored; bytes that are not UTF-8 → 400", async () => {
    const json = new TextEncoder().encode('{"name":"bom"}');
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...json]);
    const r = await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "content-type": "application/json" }, body: withBom });
    assert.equal(r.status, 200, r.text);
    assert.equal((callsOf("thing_create").at(-1)!.body as { name: string }).name, "bom");
    const before = calls.length;
    const latin1 = new Uint8Array([...new TextEncoder().encode('{"name":"caf'), 0xe9, ...new TextEncoder().encode('"}')]);
    const bad = await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "content-type": "application/json" }, body: latin1 });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json.data.issues, [{ path: "body", message: "not valid UTF-8", code: "invalid_json" }]);
    assert.equal(calls.length, before);
  });

  test("a compressed body (Content-Encoding gzip) → 400 naming the header, not 'malformed'", async () => {
    const { gzipSync } = await import("node:zlib");
    const before = calls.length;
    const r = await call("api", "/api/v1/things", {
      method: "POST",
      headers: { ...apiUser, "content-type": "application/json", "content-encoding": "gzip" },
      body: new Uint8Array(gzipSync('{"name":"x"}')),
    });
    assert.equal(r.status, 400);
    assert.equal(r.json.data.issues[0].path, "header.content-encoding");
    assert.match(r.json.message, /Content-Encoding gzip is not accepted/);
    assert.equal(calls.length, before);
    const identity = await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "content-type": "application/json", "content-encoding": "identity" }, body: '{"name":"x"}' });
    assert.equal(identity.status, 200, identity.text);
  });

  test("a body with the wrong content type → 400", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", null]) {
      const headers: Record<string, string> = { ...apiUser };
      if (type) headers["content-type"] = type;
      const r = await call("api", "/api/v1/things", { method: "POST", headers, body: new TextEncoder().encode('{"name":"x"}') });
      assert.equal(r.status, 400, `content-type ${type}`);
      assert.equal(r.json.data.issues[0].path, "header.content-type");
    }
    assert.equal(calls.length, 0);
  });

  test("JSON content types with parameters or a +json suffix are accepted", async () => {
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"]) {
      const r = await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "content-type": type }, body: '{"name":"x"}' });
      assert.equal(r.status, 200, `${type}: ${r.text}`);
    }
  });

  test("an empty body is allowed when the body only echoes path ids", async () => {
    const r = await call("api", "/api/v1/things/abc", { method: "DELETE", headers: apiUser });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(callsOf("thing_delete")[0]!.body, { thingId: "abc" });
    const blank = await call("api", "/api/v1/things/abc", { method: "DELETE", headers: apiUser, body: "  \n" });
    assert.equal(blank.status, 200, blank.text);
  });

  test("an empty body where real fields are required → 400", async () => {
    const r = await call("api", "/api/v1/things", { method: "POST", headers: apiUser });
    assert.equal(r.status, 400);
    const put = await call("api", "/api/v1/things/abc", { method: "PUT", headers: apiUser });
    assert.equal(put.status, 400);
    assert.deepEqual(
      put.json.data.issues.map((i: { path: string }) => i.path),
      ["body.name"],
    );
    assert.equal(calls.length, 0);
  });

  test("a body repeating the path id is fine; a different one → 400 and the handler is NOT called", async () => {
    const same = await call("api", "/api/v1/things/abc", { method: "PUT", headers: apiUser, json: { thingId: "abc", name: "n" } });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(same.json, { id: "abc", name: "n" });
    calls.length = 0;

    const other = await call("api", "/api/v1/things/abc", { method: "PUT", headers: apiUser, json: { thingId: "xyz", name: "n" } });
    assert.equal(other.status, 400);
    assert.equal(other.json.code, "BAD_REQUEST");
    assert.deepEqual(
      other.json.data.issues.map((i: { path: string }) => i.path),
      ["body.thingId"],
    );
    const del = await call("api", "/api/v1/things/abc", { method: "DELETE", headers: apiUser, json: { thingId: "abd" } });
    assert.equal(del.status, 400);
    assert.equal(calls.length, 0);
  });

  test("the path id is compared after percent-decoding", async () => {
    const r = await call("api", "/api/v1/things/a%20b%20c", { method: "PUT", headers: apiUser, json: { thingId: "a b c", name: "n" } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { id: "a b c", name: "n" });
  });
});

// ---------- body size ----------

describe("body size limit", () => {
  test("a declared content-length over 1 MiB → 413 without reading the body", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new TextEncoder().encode('{"name":"x"}'));
        c.close();
      },
    });
    const r = await call("api", "/api/v1/things", {
      method: "POST",
      headers: { ...apiUser, "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 1) },
      body: stream,
      duplex: "half",
    });
    assert.equal(r.status, 413);
    assert.equal(r.json.code, "PAYLOAD_TOO_LARGE");
    assert.ok(pulled <= 1, `body was read (${pulled} pulls)`);
    assert.equal(calls.length, 0);
  });

  test("a streamed body without content-length is cut off past 1 MiB → 413", { timeout: 30_000 }, async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    let cancelled = false;
    // 32 MiB of spaces, produced on demand: the pipeline must stop reading by itself long before the end.
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= 32 * MAX_BODY_BYTES) return c.close();
        sent += chunk.byteLength;
        c.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = req("/api/v1/things", { method: "POST", headers: { ...apiUser, "content-type": "application/json" }, body: endless, duplex: "half" });
    assert.equal(request.headers.get("content-length"), null);
    const res = await handle("api", request);
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { code: string }).code, "PAYLOAD_TOO_LARGE");
    assert.ok(sent <= MAX_BODY_BYTES + 4 * chunk.byteLength, `read ${sent} bytes`);
    assert.ok(cancelled, "the body stream should be cancelled");
    assert.equal(calls.length, 0);
  });

  test("exactly 1 MiB is accepted; one byte more is 413", async () => {
    const make = (size: number) => {
      const prefix = '{"name":"';
      const suffix = '"}';
      return prefix + "a".repeat(size - prefix.length - suffix.length) + suffix;
    };
    const atLimit = await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "content-type": "application/json" }, body: make(MAX_BODY_BYTES) });
    assert.equal(atLimit.status, 200);
    const over = await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "content-type": "application/json" }, body: make(MAX_BODY_BYTES + 1) });
    assert.equal(over.status, 413);
  });
});

// ---------- errors from handlers ----------

describe("errors thrown by handlers", () => {
  const get = () => call("api", "/api/v1/scripted", { headers: apiUser });

  test("an ApiError keeps its status, code, message, data and headers", async () => {
    nextThrow = new ApiError("CONFLICT", "Name taken", { field: "name" });
    const r = await get();
    assert.equal(r.status, 409);
    assert.deepEqual(r.json, { message: "Name taken", code: "CONFLICT", data: { field: "name" } });

    nextThrow = new ApiError("TOO_MANY_REQUESTS", "Slow down", undefined, { "retry-after": "7" });
    const limited = await get();
    assert.equal(limited.status, 429);
    assert.equal(limited.res.headers.get("retry-after"), "7");
    assert.deepEqual(limited.json, { message: "Slow down", code: "TOO_MANY_REQUESTS" });

    nextThrow = new ApiError("PAYMENT_REQUIRED", "Top up");
    assert.equal((await get()).status, 402);
  });

  test("Prisma known errors map to honest 4xx codes", async () => {
    const prismaError = (code: string) => Object.assign(new Error(`prisma ${code} with internals`), { name: "PrismaClientKnownRequestError", code, meta: { target: ["email"] } });
    nextThrow = prismaError("P2002");
    const conflict = await get();
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.code, "CONFLICT");
    assert.doesNotMatch(conflict.text, /internals|email/);

    nextThrow = { name: "PrismaClientKnownRequestError", code: "P2025" };
    const missing = await get();
    assert.equal(missing.status, 404);
    assert.equal(missing.json.code, "NOT_FOUND");

    nextThrow = { name: "PrismaClientKnownRequestError", code: "P2003" };
    assert.equal((await get()).status, 409);

    nextThrow = { name: "PrismaClientKnownRequestError", code: "P2999" };
    const other = await get();
    assert.equal(other.status, 500);
    assert.equal(other.json.code, "INTERNAL_SERVER_ERROR");

    // Same code, but not a Prisma error: not trusted.
    nextThrow = { name: "Error", code: "P2002" };
    assert.equal((await get()).status, 500);
  });

  test("an unexpected Error → 500 with exactly the generic body, no message and no stack", async () => {
    nextThrow = new Error("connection to postgres://admin:hunter2@db failed");
    const r = await get();
    assert.equal(r.status, 500);
    assert.deepEqual(r.json, { message: "Internal server error", code: "INTERNAL_SERVER_ERROR" });
    assert.doesNotMatch(r.text, /hunter2|postgres|stack|at /);
    assert.ok(r.res.headers.get("x-request-id"));

    nextThrow = "a bare string";
    const str = await get();
    assert.deepEqual([str.status, str.json], [500, { message: "Internal server error", code: "INTERNAL_SERVER_ERROR" }]);
  });

  test("a result that fails the response schema → 500", async () => {
    nextResult = { ok: "yes" };
    const r = await get();
    assert.equal(r.status, 500);
    assert.deepEqual(r.json, { message: "Internal server error", code: "INTERNAL_SERVER_ERROR" });
    assert.doesNotMatch(r.text, /yes/);
  });
});

// ---------- responses ----------

describe("responses", () => {
  test("fields the response schema does not list are stripped (secrets never leak)", async () => {
    const r = await call("api", "/api/v1/things/abc", { headers: apiUser });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { id: "abc", name: "Thing" });
    assert.doesNotMatch(r.text, /SECRET-HASH-VALUE|keyHash/);
  });

  test("a null result → body `null`, status 200, JSON content type, no-store, no-transform (too small to compress)", async () => {
    nextResult = null;
    const r = await call("api", "/api/v1/scripted", { headers: apiUser });
    assert.equal(r.status, 200);
    assert.equal(r.text, "null");
    assert.match(r.res.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(r.res.headers.get("cache-control"), "no-store, no-transform");
  });

  test("x-request-id: generated when absent, echoed (at most 64 chars) when given, on success and error alike", async () => {
    const ok = await call("api", "/api/v1/things/abc", { headers: apiUser });
    const generated = ok.res.headers.get("x-request-id");
    assert.match(generated ?? "", /^[0-9a-f-]{36}$/);
    assert.equal(callsOf("thing_get")[0]!.requestId, generated);

    const again = await call("api", "/api/v1/things/abc", { headers: apiUser });
    assert.notEqual(again.res.headers.get("x-request-id"), generated);

    const given = await call("api", "/api/v1/things/abc", { headers: { ...apiUser, "x-request-id": "req-123" } });
    assert.equal(given.res.headers.get("x-request-id"), "req-123");

    const long = await call("api", "/api/v1/things/abc", { headers: { ...apiUser, "x-request-id": "r".repeat(100) } });
    assert.equal(long.res.headers.get("x-request-id"), "r".repeat(64));

    for (const r of [
      await call("api", "/api/v1/nope"),
      await call("api", "/api/v1/things/abc"),
      await call("api", "/api/v1/things/abc", { method: "PATCH" }),
    ]) {
      assert.ok(r.status >= 400);
      assert.match(r.res.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    }
  });

  test("socketId comes from the X-Socket-Id header, else from body.socketId; the header wins", async () => {
    await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "x-socket-id": "sock-h" }, json: { name: "a" } });
    await call("api", "/api/v1/things", { method: "POST", headers: apiUser, json: { name: "b", socketId: "sock-b" } });
    await call("api", "/api/v1/things", { method: "POST", headers: { ...apiUser, "x-socket-id": "sock-h2" }, json: { name: "c", socketId: "sock-b2" } });
    await call("api", "/api/v1/things", { method: "POST", headers: apiUser, json: { name: "d" } });
    // Body-less GET: header only.
    await call("api", "/api/v1/things/abc", { headers: { ...apiUser, "x-socket-id": "sock-g" } });
    // Echo-only body left empty, header given.
    await call("api", "/api/v1/things/abc", { method: "DELETE", headers: { ...apiUser, "x-socket-id": "sock-d" } });
    assert.deepEqual(
      calls.map((c) => c.socketId),
      ["sock-h", "sock-b", "sock-h2", undefined, "sock-g", "sock-d"],
    );
  });
});
