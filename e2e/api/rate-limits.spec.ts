import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIResponse } from "@playwright/test";
import { bearer, createUser, dataDirOf, randomEmail } from "../support/users";

// Issue 9 part B: limits declared on every operation (docs/api.md "Rate limits"). The servers run
// with the default policies, except the per-IP sign-in limit (playwright.config.ts).

const POLICY = /^"([A-Za-z]+)";q=(\d+);w=(\d+)$/;
const STATE = /^"([A-Za-z]+)";r=(\d+);t=(\d+)$/;

function limitOf(res: APIResponse) {
  const policy = res.headers()["ratelimit-policy"]?.match(POLICY);
  const state = res.headers()["ratelimit"]?.match(STATE);
  expect(policy, `RateLimit-Policy: ${res.headers()["ratelimit-policy"]}`).toBeTruthy();
  expect(state, `RateLimit: ${res.headers()["ratelimit"]}`).toBeTruthy();
  expect(state![1]).toBe(policy![1]);
  return { name: policy![1], quota: Number(policy![2]), window: Number(policy![3]), remaining: Number(state![2]), reset: Number(state![3]) };
}

async function mailsTo(dataDir: string, to: string): Promise<number> {
  const dir = path.join(dataDir, "outbox");
  let n = 0;
  for (const file of (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".json"))) {
    const mail = JSON.parse(await readFile(path.join(dir, file), "utf8")) as { to: string };
    if (mail.to === to) n++;
  }
  return n;
}

/** Asks for a sign-in link the way the browser form does (Auth.js CSRF cookie and token). */
async function askForLink(baseURL: string, email: string) {
  const ctx = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  try {
    const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const res = await ctx.post("/api/auth/signin/resend", { form: { email, csrfToken, callbackUrl: baseURL }, maxRedirects: 0 });
    return { status: res.status(), headers: res.headers(), body: await res.text() };
  } finally {
    await ctx.dispose();
  }
}

test("every API response carries RateLimit-Policy and RateLimit: per credential, per IP without one, and the operation's own policy", async ({ request }, info) => {
  const u = await createUser(info, "limits");
  const first = await request.get("/api/v1/projects", { headers: bearer(u.apiKey) });
  expect(first.status()).toBe(200);
  const a = limitOf(first);
  expect(a).toMatchObject({ name: "default", quota: 600, window: 60 });
  const second = limitOf(await request.get("/api/v1/users/profile", { headers: bearer(u.apiKey) }));
  expect(second.remaining).toBe(a.remaining - 1);
  // The browser session is another credential with its own budget.
  expect(limitOf(await u.session.get("/cookie/v1/projects")).name).toBe("default");

  for (const res of [
    await request.get("/api/v1/projects"),
    await request.get("/api/v1/projects", { headers: bearer("tsk_" + "Z".repeat(40)) }),
    await request.get("/api/v1/nowhere"),
    await request.get("/api/v1/openapi.json"),
  ])
    expect(limitOf(res).name).toBe("anonymous");

  const p = (await (await request.post("/api/v1/projects", { headers: bearer(u.apiKey), data: { name: "Limits" } })).json()) as { id: string };
  const share = await request.post(`/api/v1/projects/${p.id}/share`, { headers: bearer(u.apiKey), data: { email: randomEmail("nobody") } });
  expect(share.status()).toBe(404);
  expect(limitOf(share)).toMatchObject({ name: "share", quota: 30, window: 3600 });
  const bad = await request.post(`/api/v1/projects/${p.id}/todos`, { headers: bearer(u.apiKey), data: { content: 5 } });
  expect(bad.status()).toBe(400);
  expect(limitOf(bad).name).toBe("default");
});

test("sign-in mail: a burst for one address gets 429 TOO_MANY_REQUESTS with Retry-After, and only 5 mails are sent", async ({ baseURL }, info) => {
  const email = randomEmail("burst");
  const statuses: number[] = [];
  let refused: Awaited<ReturnType<typeof askForLink>> | undefined;
  for (let i = 0; i < 8; i++) {
    const res = await askForLink(baseURL!, i % 2 ? email.toUpperCase() : email);
    statuses.push(res.status);
    if (res.status === 429) refused ??= res;
  }
  expect(statuses.slice(0, 5).every((s) => s < 400), statuses.join(",")).toBe(true);
  expect(statuses.slice(5)).toEqual([429, 429, 429]);
  const body = JSON.parse(refused!.body) as { message: string; code: string; data: { policy: string; retryAfter: number } };
  expect(body.code).toBe("TOO_MANY_REQUESTS");
  expect(body.data.policy).toBe("signInMail");
  const retryAfter = Number(refused!.headers["retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(900);
  expect(refused!.headers["ratelimit"]).toMatch(/^"signInMail";r=0;t=\d+$/);
  expect(await mailsTo(dataDirOf(info), email)).toBe(5);
  // Another address is not affected.
  const other = randomEmail("burst");
  expect((await askForLink(baseURL!, other)).status).toBeLessThan(400);
});

test("with two server processes on one Redis the limit is shared", async ({ baseURL, request }, info) => {
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  test.skip(!peerUrl, "this project runs a single server process");
  const email = randomEmail("shared");
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push((await askForLink(i % 2 ? peerUrl! : baseURL!, email)).status);
  expect(statuses.slice(0, 5).every((s) => s < 400), statuses.join(",")).toBe(true);
  expect(statuses.slice(5)).toEqual([429, 429]);
  expect(await mailsTo(dataDirOf(info), email)).toBe(5);

  // And the per-credential budget of an API key is one budget on both processes.
  const u = await createUser(info, "shared");
  const here = limitOf(await request.get("/api/v1/projects", { headers: bearer(u.apiKey) }));
  const peer = await playwrightRequest.newContext({ baseURL: peerUrl });
  const there = limitOf(await peer.get("/api/v1/projects", { headers: bearer(u.apiKey) }));
  await peer.dispose();
  expect(there.remaining).toBe(here.remaining - 1);
});
