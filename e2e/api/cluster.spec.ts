import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { bearer, createUser, dataDirOf, randomEmail } from "../support/users";

const run = promisify(execFile);

// Issue 18: the PostgreSQL project runs behind `npm run cluster` (two processes); `peerUrl` is the
// second process itself. Each process keeps resolved credentials in memory for a few seconds
// (server/auth/credential-cache.ts): a revocation must still end a credential on every process
// before its response arrives.

test("a revoked API key stops working on every process at once", async ({ request }, info) => {
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  test.skip(!peerUrl, "this project runs a single server process");
  const u = await createUser(info, "revoke-key");
  const peer = await playwrightRequest.newContext({ baseURL: peerUrl });
  try {
    // Warm both processes' caches: through the balancer (round-robin) and the second process directly.
    for (let i = 0; i < 4; i++) expect((await request.get("/api/v1/projects", { headers: bearer(u.apiKey) })).status()).toBe(200);
    expect((await peer.get("/api/v1/projects", { headers: bearer(u.apiKey) })).status()).toBe(200);

    expect((await u.session.delete("/cookie/v1/apikeys/e2e", { data: { name: "e2e" } })).status()).toBe(200);

    expect((await peer.get("/api/v1/projects", { headers: bearer(u.apiKey) })).status()).toBe(401);
    for (let i = 0; i < 4; i++) expect((await request.get("/api/v1/projects", { headers: bearer(u.apiKey) })).status()).toBe(401);
  } finally {
    await peer.dispose();
  }
});

test("sign-out ends the session on every process at once", async ({ request }, info) => {
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  test.skip(!peerUrl, "this project runs a single server process");
  const u = await createUser(info, "revoke-session");
  const profile = (url: string) => u.session.get(url);
  // Cookies are per host, not per port: the session cookie goes to the second process too.
  for (let i = 0; i < 4; i++) expect((await profile("/cookie/v1/users/profile")).status()).toBe(200);
  expect((await profile(`${peerUrl}/cookie/v1/users/profile`)).status()).toBe(200);
  const cookie = (await u.session.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");

  const { csrfToken } = (await (await u.session.get("/api/auth/csrf")).json()) as { csrfToken: string };
  expect((await u.session.post("/api/auth/signout", { form: { csrfToken, callbackUrl: u.baseURL } })).status()).toBeLessThan(400);

  // The old cookie, replayed, is refused everywhere.
  expect((await request.get(`${peerUrl}/cookie/v1/users/profile`, { headers: { cookie } })).status()).toBe(401);
  for (let i = 0; i < 4; i++) expect((await request.get("/cookie/v1/users/profile", { headers: { cookie } })).status()).toBe(401);
});

test("an administrator demoted on one process is refused on every process at once", async ({ request }, info) => {
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  test.skip(!peerUrl, "this project runs a single server process");
  const databaseUrl = info.project.metadata?.databaseUrl as string;
  const env = { ...process.env, LOG_LEVEL: "warn", DATA_DIR: dataDirOf(info), DATABASE_URL: databaseUrl };
  const boss = JSON.parse((await run(process.execPath, ["--import", "tsx", "scripts/user-create.ts", "--email", randomEmail("boss"), "--admin"], { env, timeout: 60_000 })).stdout) as { apiKey: string };
  const deputy = await createUser(info, "deputy");
  const promote = (isAdmin: boolean) => request.put("/api/v1/admin/administrators", { headers: bearer(boss.apiKey), data: { email: deputy.email, isAdmin } });
  expect((await promote(true)).status()).toBe(200);

  const peer = await playwrightRequest.newContext({ baseURL: peerUrl });
  try {
    // The deputy's caller, admin, is now cached on both processes.
    for (let i = 0; i < 4; i++) expect((await request.get("/api/v1/admin/courses", { headers: bearer(deputy.apiKey) })).status()).toBe(200);
    expect((await peer.get("/api/v1/admin/courses", { headers: bearer(deputy.apiKey) })).status()).toBe(200);

    expect((await promote(false)).status()).toBe(200);

    expect((await peer.get("/api/v1/admin/courses", { headers: bearer(deputy.apiKey) })).status()).toBe(403);
    for (let i = 0; i < 4; i++) expect((await request.get("/api/v1/admin/courses", { headers: bearer(deputy.apiKey) })).status()).toBe(403);
    // The key itself still works: only what it may do changed.
    expect((await peer.get("/api/v1/projects", { headers: bearer(deputy.apiKey) })).status()).toBe(200);
  } finally {
    await peer.dispose();
  }
});
