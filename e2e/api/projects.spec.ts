import { expect, test } from "@playwright/test";
import { bearer, createUser } from "../support/users";

type Project = { id: string; name: string; description: string; isPublic: boolean; ownerId: string; role: string; settings: object; createdAt: number; updatedAt: number };

test("project lifecycle through the API-key base", async ({}, info) => {
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  const created = await u.session.post("/api/v1/projects", { headers: h, data: { name: "  Launch  ", description: "Plan it" } });
  expect(created.status()).toBe(200);
  const p = (await created.json()) as Project;
  expect(p).toMatchObject({ name: "Launch", description: "Plan it", isPublic: false, ownerId: u.userId, role: "owner", settings: {} });
  expect(Number.isInteger(p.createdAt)).toBe(true);

  const got = (await (await u.session.get(`/api/v1/projects/${p.id}`, { headers: h })).json()) as Project;
  expect(got).toEqual(p);

  const upd = await u.session.put(`/api/v1/projects/${p.id}`, { headers: h, data: { description: "Plan it well" } });
  expect(upd.status()).toBe(200);
  expect(await upd.text()).toBe("null");
  const after = (await (await u.session.get(`/api/v1/projects/${p.id}`, { headers: h })).json()) as Project;
  expect(after).toMatchObject({ name: "Launch", description: "Plan it well" });
  expect(after.updatedAt).toBeGreaterThanOrEqual(p.updatedAt);

  const empty = await u.session.put(`/api/v1/projects/${p.id}`, { headers: h, data: {} });
  expect(empty.status()).toBe(400);

  const list = (await (await u.session.get("/api/v1/projects", { headers: h })).json()) as Project[];
  expect(list.map((x) => x.id)).toEqual([p.id]);

  const mismatch = await u.session.delete(`/api/v1/projects/${p.id}`, { headers: h, data: { projectId: "someone-else" } });
  expect(mismatch.status()).toBe(400);
  expect((await u.session.get(`/api/v1/projects/${p.id}`, { headers: h })).status()).toBe(200);

  const del = await u.session.delete(`/api/v1/projects/${p.id}`, { headers: h, data: { projectId: p.id } });
  expect(del.status()).toBe(200);
  expect(await del.text()).toBe("null");
  expect((await u.session.get(`/api/v1/projects/${p.id}`, { headers: h })).status()).toBe(404);
  expect((await u.session.delete(`/api/v1/projects/${p.id}`, { headers: h })).status()).toBe(404);
});

test("the same operations through the cookie base", async ({}, info) => {
  const u = await createUser(info);
  const created = await u.session.post("/cookie/v1/projects", { data: { name: "From the browser" } });
  expect(created.status()).toBe(200);
  const p = (await created.json()) as Project;
  expect((await u.session.put(`/cookie/v1/projects/${p.id}`, { data: { name: "Renamed" } })).status()).toBe(200);
  const viaKey = (await (await u.session.get(`/api/v1/projects/${p.id}`, { headers: bearer(u.apiKey) })).json()) as Project;
  expect(viaKey.name).toBe("Renamed");
  expect((await u.session.delete(`/cookie/v1/projects/${p.id}`)).status()).toBe(200);
});

test("another user's project answers exactly like a missing one", async ({}, info) => {
  const owner = await createUser(info, "owner");
  const stranger = await createUser(info, "stranger");
  const p = (await (await owner.session.post("/api/v1/projects", { headers: bearer(owner.apiKey), data: { name: "Private" } })).json()) as Project;
  const h = bearer(stranger.apiKey);

  const missing = await stranger.session.get(`/api/v1/projects/cmissingprojectid000000`, { headers: h });
  const foreign = await stranger.session.get(`/api/v1/projects/${p.id}`, { headers: h });
  expect(foreign.status()).toBe(404);
  expect(await foreign.json()).toEqual(await missing.json());

  expect((await stranger.session.put(`/api/v1/projects/${p.id}`, { headers: h, data: { name: "Mine now" } })).status()).toBe(404);
  expect((await stranger.session.delete(`/api/v1/projects/${p.id}`, { headers: h })).status()).toBe(404);
  expect((await stranger.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: { ...h, "x-socket-id": "whatever" } })).status()).toBe(404);
  expect(await (await stranger.session.get("/api/v1/projects", { headers: h })).json()).toEqual([]);

  const still = (await (await owner.session.get(`/api/v1/projects/${p.id}`, { headers: bearer(owner.apiKey) })).json()) as Project;
  expect(still.name).toBe("Private");
});

test("concurrent updates and creates lose nothing", async ({}, info) => {
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  const made = await Promise.all(Array.from({ length: 12 }, (_, i) => u.session.post("/api/v1/projects", { headers: h, data: { name: `P${i}` } })));
  expect(made.every((r) => r.status() === 200)).toBe(true);
  const list = (await (await u.session.get("/api/v1/projects", { headers: h })).json()) as Project[];
  expect(list.map((p) => p.name).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `P${i}`).sort());
});
