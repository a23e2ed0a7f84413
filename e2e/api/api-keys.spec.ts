import { expect, test } from "@playwright/test";
import { bearer, createUser } from "../support/users";

type ApiKey = { id: string; name: string; key: string; isDefault: boolean; createdAt: number; lastUsedAt: number | null };
const FULL = /^tsk_[0-9A-Za-z]{40}$/;
const MASKED = /^tsk_…[0-9A-Za-z]{4}$/;

test("a key is shown in full once, masked afterwards, and works until deleted", async ({}, info) => {
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  const res = await u.session.post("/api/v1/apikeys", { headers: h, data: { name: "ci runner" } });
  expect(res.status()).toBe(200);
  const created = (await res.json()) as ApiKey;
  expect(created.key).toMatch(FULL);
  expect(created.isDefault).toBe(false); // the e2e key made first is the default

  const list = (await (await u.session.get("/api/v1/apikeys", { headers: h })).json()) as ApiKey[];
  expect(list.map((k) => k.name)).toEqual(["e2e", "ci runner"]);
  for (const k of list) expect(k.key).toMatch(MASKED);
  expect(JSON.stringify(list)).not.toContain(created.key);
  expect(list[1]!.key).toBe(`tsk_…${created.key.slice(-4)}`);

  const one = (await (await u.session.get(`/api/v1/apikeys/${encodeURIComponent("ci runner")}`, { headers: h })).json()) as ApiKey;
  expect(one.key).toMatch(MASKED);

  const validate = await u.session.get("/api/v1/apikey/validate", { headers: { "x-api-key": created.key } });
  expect(validate.status()).toBe(200);
  expect(await validate.json()).toMatchObject({ valid: true, name: "ci runner", userId: u.userId, isDefault: false });

  expect((await u.session.post("/api/v1/apikeys", { headers: h, data: { name: "ci runner" } })).status()).toBe(409);
  expect((await u.session.post("/api/v1/apikeys", { headers: h, data: { name: "default" } })).status()).toBe(400);

  const del = await u.session.delete(`/api/v1/apikeys/${encodeURIComponent("ci runner")}`, { headers: h, data: { name: "ci runner" } });
  expect(del.status()).toBe(200);
  expect((await u.session.get("/api/v1/apikey/validate", { headers: { "x-api-key": created.key } })).status()).toBe(401);
  expect((await u.session.get("/api/v1/projects", { headers: bearer(created.key) })).status()).toBe(401);
  expect((await u.session.get(`/api/v1/apikeys/${encodeURIComponent("ci runner")}`, { headers: h })).status()).toBe(404);
});

test("default key: set, read, and created on demand exactly once", async ({}, info) => {
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  const first = (await (await u.session.get("/api/v1/apikeys/default", { headers: h })).json()) as ApiKey;
  expect(first).toMatchObject({ name: "e2e", isDefault: true });
  expect(first.key).toMatch(MASKED);

  await u.session.post("/api/v1/apikeys", { headers: h, data: { name: "second" } });
  expect((await u.session.put("/api/v1/apikeys/second/default", { headers: h, data: { name: "second" } })).status()).toBe(200);
  const list = (await (await u.session.get("/api/v1/apikeys", { headers: h })).json()) as ApiKey[];
  expect(list.filter((k) => k.isDefault).map((k) => k.name)).toEqual(["second"]);
  expect((await u.session.put("/api/v1/apikeys/nope/default", { headers: h, data: { name: "nope" } })).status()).toBe(404);

  // Remove the default: the next getDefault creates one and shows it in full, once; concurrent calls agree.
  await u.session.delete("/api/v1/apikeys/second", { headers: h });
  const made = await Promise.all([1, 2, 3].map(() => u.session.get("/cookie/v1/apikeys/default")));
  const bodies = (await Promise.all(made.map((r) => r.json()))) as ApiKey[];
  const full = bodies.filter((b) => FULL.test(b.key));
  expect(full).toHaveLength(1);
  expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
  const validate = await u.session.get("/api/v1/apikey/validate", { headers: { "x-api-key": full[0]!.key } });
  expect(await validate.json()).toMatchObject({ valid: true, isDefault: true });
  const again = (await (await u.session.get("/api/v1/apikeys/default", { headers: h })).json()) as ApiKey;
  expect(again.key).toMatch(MASKED);
});

test("API keys are managed by people and scripts, not device tokens; another user's keys are invisible", async ({}, info) => {
  const a = await createUser(info, "a");
  const b = await createUser(info, "b");
  expect((await a.session.get("/dst/v1/apikeys")).status()).toBe(404);
  await a.session.post("/api/v1/apikeys", { headers: bearer(a.apiKey), data: { name: "mine" } });
  expect((await b.session.get("/api/v1/apikeys/mine", { headers: bearer(b.apiKey) })).status()).toBe(404);
  expect((await b.session.delete("/api/v1/apikeys/mine", { headers: bearer(b.apiKey) })).status()).toBe(404);
  expect((await a.session.get("/api/v1/apikeys/mine", { headers: bearer(a.apiKey) })).status()).toBe(200);
});

test("user_profile on the API-key and cookie bases", async ({}, info) => {
  const u = await createUser(info);
  const viaKey = await (await u.session.get("/api/v1/users/profile", { headers: bearer(u.apiKey) })).json();
  const viaCookie = await (await u.session.get("/cookie/v1/users/profile")).json();
  expect(viaKey).toEqual(viaCookie);
  expect(viaKey).toMatchObject({ id: u.userId, email: u.email, isAdmin: false, defaultProjectId: null, settings: {} });
});
