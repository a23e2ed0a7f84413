import { expect, test } from "@playwright/test";
import { bearer, createUser } from "../support/users";

const ERROR_KEYS = ["code", "message"];

function expectErrorShape(body: Record<string, unknown>, code: string) {
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(Object.keys(body).filter((k) => k !== "data").sort()).toEqual(ERROR_KEYS);
}

test.describe("credentials", () => {
  for (const path of ["/api/v1/projects", "/cookie/v1/projects", "/dst/v1/projects", "/api/v1/users/profile", "/dst/v1/users/profile"]) {
    test(`401 without a credential: GET ${path}`, async ({ request }) => {
      const res = await request.get(path);
      expect(res.status()).toBe(401);
      expectErrorShape(await res.json(), "UNAUTHORIZED");
    });
  }

  test("401 with a bad or malformed credential on every base", async ({ request }) => {
    const wellFormedUnknown = "tsk_" + "A".repeat(40);
    for (const headers of [{ "x-api-key": wellFormedUnknown }, bearer(wellFormedUnknown), { "x-api-key": "nonsense" }, bearer("dst_" + "B".repeat(40))]) {
      const res = await request.get("/api/v1/projects", { headers });
      expect(res.status()).toBe(401);
      expectErrorShape(await res.json(), "UNAUTHORIZED");
    }
    const dst = await request.get("/dst/v1/projects", { headers: bearer("dst_" + "C".repeat(40)) });
    expect(dst.status()).toBe(401);
    const cookie = await request.get("/cookie/v1/projects", { headers: { cookie: "authjs.session-token=not-a-session" } });
    expect(cookie.status()).toBe(401);
  });

  test("an API key is not a cookie-base or device-base credential", async ({}, info) => {
    const u = await createUser(info);
    const ok = await u.session.get("/api/v1/projects", { headers: bearer(u.apiKey) });
    expect(ok.status()).toBe(200);
    const onDst = await u.session.get("/dst/v1/projects", { headers: bearer(u.apiKey) });
    expect(onDst.status()).toBe(401);
  });

  test("a session cookie works on the cookie base only", async ({}, info) => {
    const u = await createUser(info);
    expect((await u.session.get("/cookie/v1/users/profile")).status()).toBe(200);
    expect((await u.session.get("/api/v1/users/profile")).status()).toBe(401);
  });

  test("cookie-base writes need a same-origin Origin or Referer", async ({ playwright }, info) => {
    const u = await createUser(info);
    const state = await u.session.storageState();
    const bare = await playwright.request.newContext({ baseURL: u.baseURL, storageState: state });
    const noOrigin = await bare.post("/cookie/v1/projects", { data: { name: "x" } });
    expect(noOrigin.status()).toBe(403);
    expectErrorShape(await noOrigin.json(), "FORBIDDEN");
    const evil = await bare.post("/cookie/v1/projects", { data: { name: "x" }, headers: { origin: "https://evil.example" } });
    expect(evil.status()).toBe(403);
    const viaReferer = await bare.post("/cookie/v1/projects", { data: { name: "x" }, headers: { referer: `${u.baseURL}/some/page` } });
    expect(viaReferer.status()).toBe(200);
    // Reads need no Origin.
    expect((await bare.get("/cookie/v1/projects")).status()).toBe(200);
    const list = (await (await bare.get("/cookie/v1/projects")).json()) as { name: string }[];
    expect(list.map((p) => p.name)).toEqual(["x"]);
    await bare.dispose();
  });
});

test.describe("routing and input errors", () => {
  test("unknown path is 404 and wrong method is 405, in the error shape", async ({}, info) => {
    const u = await createUser(info);
    const missing = await u.session.get("/api/v1/no/such/thing", { headers: bearer(u.apiKey) });
    expect(missing.status()).toBe(404);
    expectErrorShape(await missing.json(), "NOT_FOUND");
    const wrong = await u.session.patch("/api/v1/projects", { headers: bearer(u.apiKey) });
    expect(wrong.status()).toBe(405);
    expect(wrong.headers()["allow"]).toBe("GET, POST");
    expectErrorShape(await wrong.json(), "METHOD_NOT_SUPPORTED");
    // Unknown paths are 404 even without a credential.
    expect((await u.session.get("/dst/v1/nowhere")).status()).toBe(404);
  });

  test("invalid bodies are 400 with data.issues and change nothing", async ({}, info) => {
    const u = await createUser(info);
    const h = bearer(u.apiKey);
    const cases: { data?: unknown; body?: string; headers?: Record<string, string>; issue?: string }[] = [
      { data: { name: "" }, issue: "body.name" },
      { data: { name: 42 }, issue: "body.name" },
      { data: { name: "x".repeat(201) }, issue: "body.name" },
      { data: {}, issue: "body.name" },
      { data: { name: "ok", isPublic: "yes" }, issue: "body.isPublic" },
      { body: "{not json", headers: { "content-type": "application/json" }, issue: "body" },
      { body: '{"name":"ok"}', headers: { "content-type": "text/plain" }, issue: "header.content-type" },
    ];
    for (const c of cases) {
      const res = await u.session.post("/api/v1/projects", {
        headers: { ...h, ...c.headers },
        ...(c.data !== undefined ? { data: c.data } : { data: c.body }),
      });
      expect(res.status(), JSON.stringify(c)).toBe(400);
      const body = (await res.json()) as { code: string; data: { issues: { path: string }[] } };
      expectErrorShape(body, "BAD_REQUEST");
      expect(body.data.issues.map((i) => i.path)).toContain(c.issue);
    }
    const list = await u.session.get("/api/v1/projects", { headers: h });
    expect(await list.json()).toEqual([]);
  });

  test("a body over 1 MiB is 413", async ({}, info) => {
    const u = await createUser(info);
    const res = await u.session.post("/api/v1/projects", { headers: bearer(u.apiKey), data: { name: "big", description: "x".repeat(1024 * 1024 + 10) } });
    expect(res.status()).toBe(413);
    expectErrorShape(await res.json(), "PAYLOAD_TOO_LARGE");
  });

  test("query and path validation: a bad API key name in the path is 400", async ({}, info) => {
    const u = await createUser(info);
    const res = await u.session.get("/api/v1/apikeys/%00bad", { headers: bearer(u.apiKey) });
    expect(res.status()).toBe(400);
    expectErrorShape(await res.json(), "BAD_REQUEST");
  });
});
