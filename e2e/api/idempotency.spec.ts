import { expect, request as playwrightRequest, test } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { bearer, createUser, type TestUser } from "../support/users";

// Idempotency-Key on POSTs that create (docs/api.md "Idempotent POSTs (issue 10)").

type Project = { id: string; name: string };

async function projectNames(u: TestUser): Promise<string[]> {
  const res = await u.session.get("/api/v1/projects", { headers: bearer(u.apiKey) });
  expect(res.status()).toBe(200);
  return ((await res.json()) as Project[]).map((p) => p.name);
}

test("a retried create is replayed byte for byte, once; another body with the key is 422 and creates nothing", async ({}, info) => {
  const u = await createUser(info, "idem");
  const key = randomUUID();
  const h = { ...bearer(u.apiKey), "idempotency-key": key };
  const first = await u.session.post("/api/v1/projects", { headers: h, data: { name: "Launch" } });
  expect(first.status()).toBe(200);
  expect(first.headers()["idempotent-replayed"]).toBeUndefined();
  const firstBytes = await first.body();

  const again = await u.session.post("/api/v1/projects", { headers: h, data: { name: "Launch" } });
  expect(again.status()).toBe(200);
  expect(again.headers()["idempotent-replayed"]).toBe("true");
  expect((await again.body()).equals(firstBytes)).toBe(true);
  expect(again.headers()["x-request-id"]).not.toBe(first.headers()["x-request-id"]);

  const other = await u.session.post("/api/v1/projects", { headers: h, data: { name: "Something else" } });
  expect(other.status()).toBe(422);
  const error = (await other.json()) as { code: string; message: string };
  expect(error.code).toBe("UNPROCESSABLE_CONTENT");
  expect(error.message).toMatch(/different request/);
  expect(await projectNames(u)).toEqual(["Launch"]);

  // The same key on another create (another path) is another request too.
  const todo = await u.session.post(`/api/v1/projects/${((await first.json()) as Project).id}/todos`, { headers: h, data: { content: "x" } });
  expect(todo.status()).toBe(422);
});

test("concurrent requests with one key create one row", async ({}, info) => {
  const u = await createUser(info, "idem");
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  // With PostgreSQL, half of them go to a second server process on the same database.
  const peer = peerUrl ? await playwrightRequest.newContext({ baseURL: peerUrl }) : u.session;
  try {
    const h = { ...bearer(u.apiKey), "idempotency-key": randomUUID() };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? peer : u.session).post("/api/v1/projects", { headers: h, data: { name: "Once" } })),
    );
    const statuses = answers.map((a) => a.status());
    for (const s of statuses) expect([200, 409]).toContain(s);
    const bodies = new Set(await Promise.all(answers.filter((a) => a.status() === 200).map(async (a) => (await a.body()).toString("base64"))));
    expect(bodies.size).toBe(1);
    expect(await projectNames(u)).toEqual(["Once"]);
    const busy = answers.find((a) => a.status() === 409);
    if (busy) expect(((await busy.json()) as { message: string }).message).toMatch(/in progress/);
  } finally {
    if (peer !== u.session) await peer.dispose();
  }
});

test("keys are per credential: the same key from another API key or another user creates again", async ({}, info) => {
  const u = await createUser(info, "idem");
  const stranger = await createUser(info, "idem");
  const second = await u.session.post("/cookie/v1/apikeys", { data: { name: "second" } });
  expect(second.status()).toBe(200);
  const secondKey = ((await second.json()) as { key: string }).key;
  const key = randomUUID();
  const viaFirst = await u.session.post("/api/v1/projects", { headers: { ...bearer(u.apiKey), "idempotency-key": key }, data: { name: "One" } });
  const viaSecond = await u.session.post("/api/v1/projects", { headers: { ...bearer(secondKey), "idempotency-key": key }, data: { name: "One" } });
  const viaStranger = await stranger.session.post("/api/v1/projects", { headers: { ...bearer(stranger.apiKey), "idempotency-key": key }, data: { name: "One" } });
  for (const res of [viaFirst, viaSecond, viaStranger]) {
    expect(res.status()).toBe(200);
    expect(res.headers()["idempotent-replayed"]).toBeUndefined();
  }
  expect(await projectNames(u)).toEqual(["One", "One"]);
  expect(await projectNames(stranger)).toEqual(["One"]);
  // The stranger's replay is the stranger's own project, never the owner's.
  const replay = await stranger.session.post("/api/v1/projects", { headers: { ...bearer(stranger.apiKey), "idempotency-key": key }, data: { name: "One" } });
  expect(replay.headers()["idempotent-replayed"]).toBe("true");
  expect(await replay.text()).toBe(await viaStranger.text());
});

test("a bad key is 400 in the error shape and creates nothing; operations that do not take one ignore it", async ({}, info) => {
  const u = await createUser(info, "idem");
  for (const key of ["x".repeat(256), "caf\u00e9"]) {
    const res = await u.session.post("/api/v1/projects", { headers: { ...bearer(u.apiKey), "idempotency-key": key }, data: { name: "Never" } });
    expect(res.status()).toBe(400);
    const body = (await res.json()) as { code: string; data: { issues: { path: string }[] } };
    expect(body.code).toBe("BAD_REQUEST");
    expect(body.data.issues[0]!.path).toBe("header.idempotency-key");
  }
  expect(await projectNames(u)).toEqual([]);
  // apiKey_create opts out (its answer holds the key, shown once): two calls, two keys.
  const h = { "idempotency-key": "same" };
  const a = await u.session.post("/cookie/v1/apikeys", { headers: h, data: { name: "k-a" } });
  const b = await u.session.post("/cookie/v1/apikeys", { headers: h, data: { name: "k-b" } });
  expect([a.status(), b.status()]).toEqual([200, 200]);
  expect(b.headers()["idempotent-replayed"]).toBeUndefined();
});
