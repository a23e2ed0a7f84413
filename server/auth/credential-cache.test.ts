import { test } from "node:test";
import assert from "node:assert/strict";
import type { Caller } from "./caller.ts";
import { CredentialCache } from "./credential-cache.ts";

const key = (id: string, extra: Partial<Caller> = {}): Caller => ({ credential: "apiKey", userId: "u1", email: "a@b.c", name: null, isAdmin: false, apiKeyId: id, ...extra });

test("kept for the TTL, then read again", () => {
  let now = 1000;
  const cache = new CredentialCache(50, () => now);
  cache.set("k:a", key("a"), cache.mark());
  assert.equal(cache.get("k:a")?.apiKeyId, "a");
  now += 49;
  assert.ok(cache.get("k:a"));
  now += 1;
  assert.equal(cache.get("k:a"), undefined);
  assert.equal(cache.size, 0);
});

test("a session or token past its own expiry is never served, whatever the TTL", () => {
  let now = 1000;
  const cache = new CredentialCache(60_000, () => now);
  cache.set("s:x", { ...key("x"), credential: "session", apiKeyId: undefined, sessionId: "x", expiresAt: 1010 }, cache.mark());
  assert.ok(cache.get("s:x"));
  now = 1010;
  assert.equal(cache.get("s:x"), undefined);
});

test("drop forgets exactly the callers acting with that credential; user: forgets all of a user's", () => {
  const cache = new CredentialCache();
  cache.set("k:a", key("a"), cache.mark());
  cache.set("k:b", key("b"), cache.mark());
  cache.set("d:t", { ...key("t"), credential: "device", apiKeyId: undefined, deviceId: "dev", tokenId: "tok" }, cache.mark());
  cache.set("k:other", key("o", { userId: "u2" }), cache.mark());
  cache.drop("apiKey:a");
  assert.equal(cache.get("k:a"), undefined);
  assert.ok(cache.get("k:b"));
  cache.drop("device:dev");
  assert.equal(cache.get("d:t"), undefined);
  cache.drop("user:u1");
  assert.equal(cache.get("k:b"), undefined);
  assert.ok(cache.get("k:other"), "another user's stays");
});

test("a caller read before a drop is not kept after it (a revocation racing a lookup)", () => {
  const cache = new CredentialCache();
  const mark = cache.mark(); // the lookup starts and reads the row…
  cache.drop("apiKey:a"); // …the key is revoked meanwhile…
  cache.set("k:a", key("a"), mark); // …and the stale row must not be cached
  assert.equal(cache.get("k:a"), undefined);
  cache.set("k:a", key("a"), cache.mark());
  assert.ok(cache.get("k:a"));
});

test("bounded: the oldest entries make room", () => {
  const cache = new CredentialCache();
  for (let i = 0; i < 10_050; i++) cache.set(`k:${i}`, key(String(i)), cache.mark());
  assert.ok(cache.size <= 10_000);
  assert.equal(cache.get("k:0"), undefined);
  assert.ok(cache.get("k:10049"));
});
