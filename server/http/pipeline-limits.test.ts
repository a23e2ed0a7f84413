import { before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { BASE_PATH, type Base, type Caller } from "../auth/caller.ts";
import { setLogLevel } from "../log.ts";
import { ANY_CREDENTIAL, USER_CREDENTIAL, defineOperation } from "./define.ts";
import { createPipeline, type ResolveCaller } from "./pipeline.ts";
import { CLIENT_IP_HEADER, RateLimits } from "./rate-limit.ts";
import { Router } from "./router.ts";
import { readResponse } from "../testing/http.ts";

// The pipeline's declared limits and todo scope (docs/api.md "Rate limits", "Todo-scoped tokens").

const APP = "http://app.test";
const ada: Caller = { credential: "apiKey", userId: "u_ada", email: "ada@example.com", name: "Ada", isAdmin: false, apiKeyId: "k_ada" };
const bob: Caller = { ...ada, userId: "u_bob", email: "bob@example.com", apiKeyId: "k_bob" };
const mayfly: Caller = { credential: "device", userId: "u_ada", email: "ada@example.com", name: "Ada", isAdmin: false, deviceId: null, tokenId: "t_m", todoScope: "todo_mine" };
const device: Caller = { ...mayfly, deviceId: "d_1", tokenId: "t_d", todoScope: null };

const resolveCaller: ResolveCaller = async (base: Base, headers) => {
  const token = headers.get("x-api-key") ?? headers.get("authorization")?.replace(/^Bearer /, "");
  if (base === "api") return token === "ada" ? ada : token === "bob" ? bob : null;
  if (base === "dst") return token === "mayfly" ? mayfly : token === "device" ? device : null;
  return null;
};

const handled: string[] = [];
const ZTodoParams = z.object({ todoId: z.string().min(1) });
const ok = z.object({ ok: z.literal(true) });
const done = (id: string) => async () => {
  handled.push(id);
  return { ok: true as const };
};

const ops = [
  defineOperation({ id: "thing_list", method: "GET", path: "/things", summary: "s", tag: "T", auth: ANY_CREDENTIAL, response: ok, handler: done("thing_list") }),
  defineOperation({ id: "thing_share", method: "POST", path: "/things/share", summary: "s", tag: "T", auth: USER_CREDENTIAL, rateLimit: "share", response: ok, handler: done("thing_share") }),
  defineOperation({ id: "public_read", method: "GET", path: "/public", summary: "s", tag: "T", auth: "none", response: z.object({ who: z.string().nullable() }), handler: async (ctx) => ({ who: ctx.caller?.userId ?? null }) }),
  defineOperation({ id: "admin_only", method: "GET", path: "/admin", summary: "s", tag: "T", auth: ANY_CREDENTIAL, admin: true, response: ok, handler: done("admin_only") }),
  defineOperation({ id: "todo_read", method: "GET", path: "/todos/{todoId}", summary: "s", tag: "T", auth: ANY_CREDENTIAL, todoScope: "todo", params: ZTodoParams, response: ok, handler: done("todo_read") }),
  defineOperation({ id: "todo_remove", method: "DELETE", path: "/todos/{todoId}", summary: "s", tag: "T", auth: ANY_CREDENTIAL, params: ZTodoParams, response: ok, handler: done("todo_remove") }),
  defineOperation({ id: "todo_report", method: "POST", path: "/report", summary: "s", tag: "T", auth: ANY_CREDENTIAL, todoScope: "todo", body: z.object({ todoId: z.string() }), response: ok, handler: done("todo_report") }),
];

const IP = { [CLIENT_IP_HEADER]: "203.0.113.7" };
let handle: ReturnType<typeof createPipeline>;

async function call(base: Base, path: string, init: { method?: string; headers?: Record<string, string>; json?: unknown } = {}) {
  const headers: Record<string, string> = { ...IP, ...init.headers };
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const res = await handle(base, new Request(`${APP}${BASE_PATH[base]}${path}`, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }));
  return { res, ...(await readResponse(res)) };
}

function assertRateHeaders(res: Response, policy: string, quota: number, window: number) {
  assert.equal(res.headers.get("ratelimit-policy"), `"${policy}";q=${quota};w=${window}`);
  const m = res.headers.get("ratelimit")?.match(/^"([a-zA-Z]+)";r=(\d+);t=(\d+)$/);
  assert.ok(m, `RateLimit header: ${res.headers.get("ratelimit")}`);
  assert.equal(m[1], policy);
  assert.ok(Number(m[2]) < quota && Number(m[3]) >= 1 && Number(m[3]) <= window);
  return Number(m[2]);
}

before(() => setLogLevel("silent"));
beforeEach(() => {
  handled.length = 0;
  handle = createPipeline(new Router(ops), resolveCaller, APP, { limits: new RateLimits({ overrides: { share: { points: 3, window: 60 }, anonymous: { points: 4, window: 60 } } }) });
});

describe("rate limits: headers on every response", () => {
  test("success, 400, 401, 403 (role or same-origin), 404 and 405 all carry RateLimit-Policy and RateLimit", async () => {
    const cases = [
      { r: await call("api", "/things", { headers: { "x-api-key": "ada" } }), status: 200, policy: "default", q: 600 },
      { r: await call("api", "/report", { method: "POST", headers: { "x-api-key": "ada" }, json: { todoId: 5 } }), status: 400, policy: "default", q: 600 },
      { r: await call("api", "/admin", { headers: { "x-api-key": "ada" } }), status: 403, policy: "default", q: 600 },
      { r: await call("api", "/things", { headers: { "x-api-key": "nobody" } }), status: 401, policy: "anonymous", q: 4 },
      { r: await call("api", "/nowhere"), status: 404, policy: "anonymous", q: 4 },
      { r: await call("api", "/things", { method: "PATCH" }), status: 405, policy: "anonymous", q: 4 },
      // The cookie base's same-origin check refuses before any credential is looked at.
      { r: await call("cookie", "/things/share", { method: "POST" }), status: 403, policy: "anonymous", q: 4 },
    ];
    for (const { r, status, policy, q } of cases) {
      assert.equal(r.status, status, r.text);
      assertRateHeaders(r.res, policy, q, 60);
      assert.ok(r.res.headers.get("x-request-id"));
    }
  });

  test("each request spends one point of the caller's budget: r counts down", async () => {
    const first = assertRateHeaders((await call("api", "/things", { headers: { "x-api-key": "ada" } })).res, "default", 600, 60);
    const second = assertRateHeaders((await call("api", "/things", { headers: { "x-api-key": "ada" } })).res, "default", 600, 60);
    assert.equal(second, first - 1);
  });
});

describe("rate limits: 429 TOO_MANY_REQUESTS", () => {
  test("a burst over the operation's policy gets 429 with Retry-After in the error shape; the handler does not run", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await call("api", "/things/share", { method: "POST", headers: { "x-api-key": "ada" } })).status, 200);
    const over = await call("api", "/things/share", { method: "POST", headers: { "x-api-key": "ada" } });
    assert.equal(over.status, 429);
    assert.deepEqual(Object.keys(over.json).sort(), ["code", "data", "message"]);
    assert.equal(over.json.code, "TOO_MANY_REQUESTS");
    assert.equal(over.json.data.policy, "share");
    const retryAfter = Number(over.res.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.match(over.res.headers.get("ratelimit") ?? "", /^"share";r=0;t=\d+$/);
    assert.equal(handled.filter((h) => h === "thing_share").length, 3);
  });

  test("budgets are per credential and per policy: another key, or another policy, is untouched", async () => {
    for (let i = 0; i < 4; i++) await call("api", "/things/share", { method: "POST", headers: { "x-api-key": "ada" } });
    assert.equal((await call("api", "/things/share", { method: "POST", headers: { "x-api-key": "bob" } })).status, 200);
    assert.equal((await call("api", "/things", { headers: { "x-api-key": "ada" } })).status, 200);
  });

  test("without a credential the budget is the IP's: 401s and public reads spend it, another IP has its own", async () => {
    assert.equal((await call("api", "/things", { headers: { "x-api-key": "wrong" } })).status, 401);
    assert.equal((await call("api", "/public")).status, 200);
    assert.equal((await call("api", "/nowhere")).status, 404);
    assert.equal((await call("api", "/public")).status, 200);
    const over = await call("api", "/public");
    assert.equal(over.status, 429);
    assert.ok(over.res.headers.get("retry-after"));
    assert.equal((await call("api", "/public", { headers: { [CLIENT_IP_HEADER]: "198.51.100.1" } })).status, 200);
    // A valid credential spends its own budget, not the IP's.
    assert.equal((await call("api", "/things", { headers: { "x-api-key": "ada" } })).status, 200);
  });
});

describe("todo-scoped (mayfly) tokens", () => {
  test("an operation that does not declare todoScope is 403 FORBIDDEN, before its input is read", async () => {
    for (const [method, path] of [["GET", "/things"], ["DELETE", "/todos/todo_mine"]] as const) {
      const r = await call("dst", path, { method, headers: { authorization: "Bearer mayfly" } });
      assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
      assert.equal(r.json.code, "FORBIDDEN");
      assert.match(r.json.message, /scoped to one todo/);
    }
    assert.deepEqual(handled, []);
  });

  test("a declared operation runs on the token's own todo only (path or body todoId)", async () => {
    assert.equal((await call("dst", "/todos/todo_mine", { headers: { authorization: "Bearer mayfly" } })).status, 200);
    const other = await call("dst", "/todos/todo_other", { headers: { authorization: "Bearer mayfly" } });
    assert.equal(other.status, 403);
    assert.match(other.json.message, /another todo/);
    assert.equal((await call("dst", "/report", { method: "POST", headers: { authorization: "Bearer mayfly" }, json: { todoId: "todo_mine" } })).status, 200);
    assert.equal((await call("dst", "/report", { method: "POST", headers: { authorization: "Bearer mayfly" }, json: { todoId: "todo_other" } })).status, 403);
    assert.deepEqual(handled, ["todo_read", "todo_report"]);
  });

  test("an unscoped device token is not limited to one todo; a scoped one is nobody on public operations", async () => {
    assert.equal((await call("dst", "/todos/todo_other", { headers: { authorization: "Bearer device" } })).status, 200);
    assert.equal((await call("dst", "/things", { headers: { authorization: "Bearer device" } })).status, 200);
    assert.deepEqual((await call("dst", "/public", { headers: { authorization: "Bearer device" } })).json, { who: "u_ada" });
    assert.deepEqual((await call("dst", "/public", { headers: { authorization: "Bearer mayfly" } })).json, { who: null });
  });
});
