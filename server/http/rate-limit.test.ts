import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { setLogLevel } from "../log.ts";
import { deleteRedisKeys, withRedis } from "../testing/redis.ts";
import { RATE_POLICIES, RATE_POLICY_NAMES, RateLimits, createRateLimits, normalizeEmail, parseRateLimitOverrides } from "./rate-limit.ts";

before(() => setLogLevel("silent"));

describe("policies", () => {
  test("RATE_LIMITS overrides name known policies; RATE_LIMIT_SCALE multiplies the rest", () => {
    assert.deepEqual(parseRateLimitOverrides(" share=3/60 ,signInIp=10000/900,"), { share: { points: 3, window: 60 }, signInIp: { points: 10000, window: 900 } });
    assert.throws(() => parseRateLimitOverrides("nosuch=1/1"), /unknown policy "nosuch"/);
    assert.throws(() => parseRateLimitOverrides("share=1"), /not name=points\/seconds/);
    assert.throws(() => parseRateLimitOverrides("share=0/60"), /at least 1/);
    const limits = new RateLimits({ scale: 0.5, overrides: { share: { points: 3, window: 60 } } });
    assert.deepEqual(limits.policies.share, { points: 3, window: 60 });
    assert.deepEqual(limits.policies.default, { points: RATE_POLICIES.default.points / 2, window: RATE_POLICIES.default.window });
    for (const name of RATE_POLICY_NAMES) assert.ok(new RateLimits({ scale: 1e-9 }).policies[name].points >= 1, `${name} keeps at least one point`);
  });

  test("tighter policies where abuse is cheap than the default, and the ones for what comes next exist", () => {
    const perMinute = (p: { points: number; window: number }) => (p.points * 60) / p.window;
    for (const name of ["share", "report", "signInMail", "deviceCodePoll", "userCodeEntry", "invite", "paymentIntent"] as const)
      assert.ok(perMinute(RATE_POLICIES[name]) < perMinute(RATE_POLICIES.default), name);
  });
});

test("the README's table of policies is the one in the code", () => {
  const unit: Record<string, number> = { s: 1, min: 60, h: 3600 };
  const rows = [...readFileSync(new URL("../../README.md", import.meta.url), "utf8").matchAll(/^\| `(\w+)` \| (\d+) \/ (\d+) (s|min|h) \|/gm)];
  const documented = Object.fromEntries(rows.map((m) => [m[1], { points: Number(m[2]), window: Number(m[3]) * unit[m[4]!]! }]));
  const coded = Object.fromEntries(RATE_POLICY_NAMES.map((n) => [n, { points: RATE_POLICIES[n].points, window: RATE_POLICIES[n].window }]));
  assert.deepEqual(documented, coded);
});

describe("counting", () => {
  test("headers per draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit count down; over the quota is refused with Retry-After", async () => {
    const limits = new RateLimits({ overrides: { report: { points: 2, window: 30 } } });
    const first = await limits.consume("report", "key:a");
    assert.deepEqual(first.headers, { "ratelimit-policy": '"report";q=2;w=30', ratelimit: first.headers.ratelimit });
    assert.match(first.headers.ratelimit!, /^"report";r=1;t=(30|29)$/);
    assert.equal(first.allowed, true);
    assert.match((await limits.consume("report", "key:a")).headers.ratelimit!, /^"report";r=0;t=\d+$/);
    const over = await limits.consume("report", "key:a");
    assert.equal(over.allowed, false);
    assert.match(over.headers.ratelimit!, /^"report";r=0;t=\d+$/);
    const retry = Number(over.headers["retry-after"]);
    assert.ok(retry >= 1 && retry <= 30);
    // Another key has its own budget.
    assert.equal((await limits.consume("report", "key:b")).allowed, true);
  });

  test("enforce throws 429 TOO_MANY_REQUESTS carrying the headers", async () => {
    const limits = new RateLimits({ overrides: { share: { points: 1, window: 60 } } });
    const into: Record<string, string> = {};
    await limits.enforce("share", "k", into);
    assert.ok(into.ratelimit);
    await assert.rejects(limits.enforce("share", "k", {}), (err: { code?: string; status?: number; headers?: Record<string, string> }) => {
      assert.equal(err.code, "TOO_MANY_REQUESTS");
      assert.equal(err.status, 429);
      assert.ok(Number(err.headers?.["retry-after"]) >= 1);
      return true;
    });
  });
});

test("a Redis that is down does not fail requests: the process counts in memory meanwhile", async () => {
  const limits = new RateLimits({ redis: { isReady: false }, overrides: { share: { points: 1, window: 60 } } });
  assert.equal((await limits.consume("share", "k")).allowed, true);
  const over = await limits.consume("share", "k");
  assert.equal(over.allowed, false);
  assert.ok(over.headers["retry-after"]);
});

describe("sign-in mail", () => {
  test("per address (case and spacing do not make a new one) and per IP", async () => {
    const limits = new RateLimits({ overrides: { signInMail: { points: 2, window: 900 }, signInIp: { points: 5, window: 900 } } });
    assert.equal(await limits.signInMail("ada@example.com", "1.1.1.1"), null);
    assert.equal(await limits.signInMail(" ADA@Example.com ", "2.2.2.2"), null);
    const third = await limits.signInMail("ada@example.com", "3.3.3.3");
    assert.equal(third?.code, "TOO_MANY_REQUESTS");
    assert.equal(third?.data?.policy, "signInMail");
    // Other addresses from one IP: refused once the IP's budget is spent.
    for (let i = 0; i < 5; i++) assert.equal(await limits.signInMail(`u${i}@example.com`, "9.9.9.9"), null);
    assert.equal((await limits.signInMail("u9@example.com", "9.9.9.9"))?.data?.policy, "signInIp");
    assert.equal(normalizeEmail(" Bob@Example.ORG"), "bob@example.org");
  });
});

describe("with Redis", () => {
  const redis = withRedis(before);
  test("two limiters (two server processes) on one Redis and prefix share one budget", async (t) => {
    if (redis.skipReason()) return t.skip(redis.skipReason());
    const prefix = `unit-rl-${randomUUID().slice(0, 8)}`;
    const config = { redisUrl: redis.url, redisPrefix: prefix, rateLimitScale: 1, rateLimits: { share: { points: 3, window: 60 } } };
    const [a, b] = [await createRateLimits(config), await createRateLimits(config)];
    try {
      assert.equal((await a.limits.consume("share", "key:x")).allowed, true);
      assert.equal((await b.limits.consume("share", "key:x")).allowed, true);
      assert.equal((await a.limits.consume("share", "key:x")).allowed, true);
      const over = await b.limits.consume("share", "key:x");
      assert.equal(over.allowed, false);
      assert.ok(over.headers["retry-after"]);
      const client = await import("redis").then(({ createClient }) => createClient({ url: redis.url }));
      await client.connect();
      const keys = await client.keys(`${prefix}:*`);
      await client.quit();
      assert.ok(keys.length > 0 && keys.every((k) => k.startsWith(`${prefix}:ratelimit:share`)), `keys: ${keys.join(", ")}`);
      assert.ok(keys.every((k) => !k.includes("key:x")), "keys are hashed");
    } finally {
      await Promise.all([a.close(), b.close()]);
      await deleteRedisKeys(prefix);
    }
  });
});
