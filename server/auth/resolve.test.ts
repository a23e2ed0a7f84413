import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createTestUser, suiteTestRuntime } from "../testing/runtime.ts";
import { readCookie, resolveApiKey, resolveCaller, resolveDeviceToken, resolveHandshake, resolveSessionToken, SESSION_COOKIES } from "./resolve.ts";
import { newApiKey, newDeviceToken, sha256 } from "./tokens.ts";

const t = suiteTestRuntime();

const HOUR = 3600_000;

async function insertApiKey(userId: string, name = `k-${randomUUID().slice(0, 6)}`) {
  const key = newApiKey();
  const row = await t.prisma.apiKey.create({ data: { userId, name, keyHash: sha256(key), last4: key.slice(-4) } });
  return { key, row };
}

async function insertDeviceToken(userId: string, data: { expiresAt?: Date; revokedAt?: Date | null; deviceId?: string | null; todoId?: string | null; kind?: "device" | "mayfly" } = {}) {
  const token = newDeviceToken();
  const row = await t.prisma.deviceToken.create({
    data: {
      userId,
      tokenHash: sha256(token),
      expiresAt: data.expiresAt ?? new Date(Date.now() + HOUR),
      revokedAt: data.revokedAt ?? null,
      deviceId: data.deviceId ?? null,
      todoId: data.todoId ?? null,
      kind: data.kind ?? "device",
    },
  });
  return { token, row };
}

async function insertSession(userId: string, expires = new Date(Date.now() + HOUR)) {
  const sessionToken = randomUUID();
  await t.prisma.session.create({ data: { sessionToken, userId, expires } });
  return sessionToken;
}

/** tsk_ + the body with upper and lower case swapped (digits unchanged). */
function swapCase(key: string): string {
  const body = [...key.slice(4)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
  assert.notEqual(body, key.slice(4), "a key of digits only");
  return key.slice(0, 4) + body;
}

const h = (init: Record<string, string>) => new Headers(init);

describe("API keys (/api/v1)", () => {
  test("a key in x-api-key resolves to its user", async () => {
    const user = await createTestUser(t.prisma, { name: "Ada", isAdmin: true });
    const { key, row } = await insertApiKey(user.id);
    const caller = await resolveCaller("api", h({ "x-api-key": key }));
    assert.deepEqual(caller, { credential: "apiKey", userId: user.id, email: user.email, name: "Ada", isAdmin: true, apiKeyId: row.id });
  });

  test("a key as a Bearer token resolves the same way (any case of 'Bearer', surrounding spaces)", async () => {
    const user = await createTestUser(t.prisma, { name: null });
    const { key, row } = await insertApiKey(user.id);
    for (const authorization of [`Bearer ${key}`, `bearer ${key}`, `Bearer   ${key}  `]) {
      const caller = await resolveCaller("api", h({ authorization }));
      assert.equal(caller?.userId, user.id, authorization);
      assert.equal(caller?.apiKeyId, row.id);
      assert.equal(caller?.name, null);
      assert.equal(caller?.isAdmin, false);
    }
    const trimmed = await resolveCaller("api", h({ "x-api-key": `  ${key} ` }));
    assert.equal(trimmed?.userId, user.id);
  });

  test("two users' keys resolve to their own users", async () => {
    const a = await createTestUser(t.prisma);
    const b = await createTestUser(t.prisma);
    const ka = await insertApiKey(a.id, "same-name");
    const kb = await insertApiKey(b.id, "same-name");
    assert.equal((await resolveApiKey(ka.key))?.userId, a.id);
    assert.equal((await resolveApiKey(kb.key))?.userId, b.id);
  });

  test("unknown, malformed and missing keys → null", async () => {
    const user = await createTestUser(t.prisma);
    const { key } = await insertApiKey(user.id);
    const unknown = newApiKey();
    const cases: Record<string, string>[] = [
      {},
      { "x-api-key": unknown },
      { "x-api-key": key.slice(0, -1) },
      { "x-api-key": key + "x" },
      { "x-api-key": swapCase(key) }, // well-formed, but keys are case-sensitive
      { "x-api-key": "not-a-key" },
      { authorization: `Basic ${Buffer.from(`u:${key}`).toString("base64")}` },
      { authorization: `Bearer ${unknown}` },
      { authorization: `Bearer ${key} extra` },
      { authorization: "Bearer" },
      { "x-api-key": newDeviceToken() },
    ];
    for (const headers of cases) {
      assert.equal(await resolveCaller("api", h(headers)), null, JSON.stringify(headers));
    }
  });

  test("a deleted key → null", async () => {
    const user = await createTestUser(t.prisma);
    const { key, row } = await insertApiKey(user.id);
    assert.ok(await resolveApiKey(key));
    await t.prisma.apiKey.delete({ where: { id: row.id } });
    assert.equal(await resolveApiKey(key), null);
    assert.equal(await resolveCaller("api", h({ "x-api-key": key })), null);
  });

  test("a key is only a credential on /api/v1", async () => {
    const user = await createTestUser(t.prisma);
    const { key } = await insertApiKey(user.id);
    assert.equal(await resolveCaller("dst", h({ authorization: `Bearer ${key}` })), null);
    assert.equal(await resolveCaller("cookie", h({ "x-api-key": key, authorization: `Bearer ${key}` })), null);
  });

  test("using a key records lastUsedAt", async () => {
    const user = await createTestUser(t.prisma);
    const { key, row } = await insertApiKey(user.id);
    assert.equal(row.lastUsedAt, null);
    const before = Date.now();
    await resolveApiKey(key);
    let lastUsedAt: Date | null = null;
    for (let i = 0; i < 50 && !lastUsedAt; i++) {
      lastUsedAt = (await t.prisma.apiKey.findUnique({ where: { id: row.id } }))!.lastUsedAt;
      if (!lastUsedAt) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(lastUsedAt, "lastUsedAt was not written");
    assert.ok(lastUsedAt.getTime() >= before - 1000 && lastUsedAt.getTime() <= Date.now() + 1000);
  });
});

describe("device tokens (/dst/v1)", () => {
  test("a DeviceToken row with tokenHash = sha256(token) resolves as a Bearer token", async () => {
    const user = await createTestUser(t.prisma, { name: "Dev" });
    const device = await t.prisma.device.create({ data: { userId: user.id, name: "laptop", secretHash: sha256(randomUUID()) } });
    const { token, row } = await insertDeviceToken(user.id, { deviceId: device.id });
    const caller = await resolveCaller("dst", h({ authorization: `Bearer ${token}` }));
    assert.deepEqual(caller, {
      credential: "device",
      userId: user.id,
      email: user.email,
      name: "Dev",
      isAdmin: false,
      deviceId: device.id,
      tokenId: row.id,
      todoScope: null,
      expiresAt: row.expiresAt.getTime(),
    });
  });

  test("a mayfly token carries its todo scope", async () => {
    const user = await createTestUser(t.prisma);
    const { token } = await insertDeviceToken(user.id, { kind: "mayfly", todoId: "todo_abc123" });
    const caller = await resolveDeviceToken(token);
    assert.equal(caller?.todoScope, "todo_abc123");
    assert.equal(caller?.deviceId, null);
    assert.equal(caller?.credential, "device");
  });

  test("an expired token → null (expiry is exclusive)", async () => {
    const user = await createTestUser(t.prisma);
    const { token } = await insertDeviceToken(user.id, { expiresAt: new Date(Date.now() - 1000) });
    assert.equal(await resolveCaller("dst", h({ authorization: `Bearer ${token}` })), null);
    const almost = await insertDeviceToken(user.id, { expiresAt: new Date(Date.now() + 60_000) });
    assert.ok(await resolveDeviceToken(almost.token));
  });

  test("a revoked token → null, even before it expires", async () => {
    const user = await createTestUser(t.prisma);
    const { token, row } = await insertDeviceToken(user.id);
    assert.ok(await resolveDeviceToken(token));
    await t.prisma.deviceToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    assert.equal(await resolveDeviceToken(token), null);
  });

  test("unknown or malformed tokens, and tokens outside /dst/v1 → null", async () => {
    const user = await createTestUser(t.prisma);
    const { token } = await insertDeviceToken(user.id);
    assert.equal(await resolveCaller("dst", h({ authorization: `Bearer ${newDeviceToken()}` })), null);
    assert.equal(await resolveCaller("dst", h({ authorization: `Bearer ${token.slice(0, -1)}` })), null);
    assert.equal(await resolveCaller("dst", h({ "x-api-key": token })), null, "dst reads only the Authorization header");
    assert.equal(await resolveCaller("dst", h({})), null);
    assert.equal(await resolveCaller("api", h({ authorization: `Bearer ${token}` })), null);
    assert.equal(await resolveCaller("api", h({ "x-api-key": token })), null);
  });

  test("an API key is not a device token", async () => {
    const user = await createTestUser(t.prisma);
    const { key } = await insertApiKey(user.id);
    assert.equal(await resolveDeviceToken(key), null);
  });
});

describe("session cookies (/cookie/v1)", () => {
  test("authjs.session-token with a Session row resolves", async () => {
    const user = await createTestUser(t.prisma, { name: "Sam" });
    const token = await insertSession(user.id);
    const caller = await resolveCaller("cookie", h({ cookie: `authjs.session-token=${token}` }));
    const row = await t.prisma.session.findUniqueOrThrow({ where: { sessionToken: token }, select: { id: true, expires: true } });
    // sessionId names the row, so signing out can close the session's connections.
    assert.deepEqual(caller, { credential: "session", userId: user.id, email: user.email, name: "Sam", isAdmin: false, sessionId: row.id, expiresAt: row.expires.getTime() });
  });

  test("the __Secure- variant resolves, also among other cookies", async () => {
    const user = await createTestUser(t.prisma);
    const token = await insertSession(user.id);
    assert.equal((await resolveCaller("cookie", h({ cookie: `__Secure-authjs.session-token=${token}` })))?.userId, user.id);
    assert.equal((await resolveCaller("cookie", h({ cookie: `theme=dark; authjs.session-token=${token}; other=1` })))?.userId, user.id);
    assert.equal((await resolveCaller("cookie", h({ cookie: `a=b;__Secure-authjs.session-token=${token}` })))?.userId, user.id);
  });

  test("an expired session → null", async () => {
    const user = await createTestUser(t.prisma);
    const token = await insertSession(user.id, new Date(Date.now() - 1000));
    assert.equal(await resolveCaller("cookie", h({ cookie: `authjs.session-token=${token}` })), null);
    assert.equal(await resolveSessionToken(token), null);
  });

  test("unknown, empty, oversized or wrongly named cookies → null", async () => {
    const user = await createTestUser(t.prisma);
    const token = await insertSession(user.id);
    for (const cookie of [
      `authjs.session-token=${randomUUID()}`,
      "authjs.session-token=",
      `authjs.session-token=${"x".repeat(600)}`,
      `next-auth.session-token=${token}`,
      `xauthjs.session-token=${token}`,
      `authjs.session-token-x=${token}`,
      token,
    ]) {
      assert.equal(await resolveCaller("cookie", h({ cookie })), null, cookie);
    }
    assert.equal(await resolveCaller("cookie", h({})), null);
    assert.equal(await resolveCaller("cookie", h({ authorization: `Bearer ${token}` })), null);
  });

  test("a session cookie is not a credential on /api/v1 or /dst/v1", async () => {
    const user = await createTestUser(t.prisma);
    const token = await insertSession(user.id);
    assert.equal(await resolveCaller("api", h({ cookie: `authjs.session-token=${token}` })), null);
    assert.equal(await resolveCaller("dst", h({ cookie: `authjs.session-token=${token}` })), null);
  });

  test("deleting the user ends the session (cascade)", async () => {
    const user = await createTestUser(t.prisma);
    const token = await insertSession(user.id);
    await t.prisma.user.delete({ where: { id: user.id } });
    assert.equal(await resolveSessionToken(token), null);
  });
});

describe("readCookie", () => {
  test("finds the first listed name present, decodes it, and ignores malformed parts", () => {
    assert.deepEqual(SESSION_COOKIES, ["__Secure-authjs.session-token", "authjs.session-token"]);
    assert.equal(readCookie("a=1; b=2", ["b"]), "2");
    assert.equal(readCookie("a=1; b=x%20y", ["b"]), "x y");
    assert.equal(readCookie("junk; b=v=w", ["b"]), "v=w");
    assert.equal(readCookie("authjs.session-token=plain; __Secure-authjs.session-token=secure", SESSION_COOKIES), "secure");
    assert.equal(readCookie("b=%E0%A4%A", ["b"]), undefined);
    assert.equal(readCookie(undefined, ["b"]), undefined);
    assert.equal(readCookie("", ["b"]), undefined);
    assert.equal(readCookie("a=1", ["b"]), undefined);
  });
});

describe("Socket.IO handshakes", () => {
  test("auth.token may be an API key or a dst_ token", async () => {
    const user = await createTestUser(t.prisma);
    const { key } = await insertApiKey(user.id);
    const { token } = await insertDeviceToken(user.id, { todoId: "todo_1", kind: "mayfly" });
    const byKey = await resolveHandshake(key, undefined);
    assert.equal(byKey?.credential, "apiKey");
    assert.equal(byKey?.userId, user.id);
    const byToken = await resolveHandshake(token, undefined);
    assert.equal(byToken?.credential, "device");
    assert.equal(byToken?.todoScope, "todo_1");
  });

  test("without a token the session cookie is used", async () => {
    const user = await createTestUser(t.prisma);
    const session = await insertSession(user.id);
    for (const token of [undefined, "", null, 42, { key: "x" }]) {
      const caller = await resolveHandshake(token, `lang=en; authjs.session-token=${session}`);
      assert.equal(caller?.credential, "session", String(token));
      assert.equal(caller?.userId, user.id);
    }
  });

  test("bad, expired or absent credentials → null", async () => {
    const user = await createTestUser(t.prisma);
    const expired = await insertDeviceToken(user.id, { expiresAt: new Date(Date.now() - 1) });
    const oldSession = await insertSession(user.id, new Date(Date.now() - 1));
    assert.equal(await resolveHandshake(newApiKey(), undefined), null);
    assert.equal(await resolveHandshake(expired.token, undefined), null);
    assert.equal(await resolveHandshake("garbage", undefined), null);
    assert.equal(await resolveHandshake(undefined, `authjs.session-token=${oldSession}`), null);
    assert.equal(await resolveHandshake(undefined, undefined), null);
  });
});
