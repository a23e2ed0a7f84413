import { execFileSync } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { expect, request as playwrightRequest, type APIRequestContext, type TestInfo } from "@playwright/test";

export type TestUser = {
  email: string;
  userId: string;
  apiKey: string;
  /** A request context holding the user's browser session cookie. */
  session: APIRequestContext;
  baseURL: string;
};

export function randomEmail(tag = "user"): string {
  return `${tag}-${randomUUID().slice(0, 8)}@e2e.example.com`;
}

export function dataDirOf(info: TestInfo): string {
  const dir = info.project.metadata?.dataDir as string | undefined;
  if (!dir) throw new Error(`project ${info.project.name} has no metadata.dataDir`);
  return dir;
}

/** The newest mail to `to` in the server's outbox (the offline stand-in for Resend). */
export async function readOutbox(dataDir: string, to: string, timeoutMs = 10_000): Promise<{ subject: string; text: string; html: string }> {
  const dir = path.join(dataDir, "outbox");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith(".json")).sort().reverse()) {
      const mail = JSON.parse(await readFile(path.join(dir, file), "utf8")) as { to: string; subject: string; text: string; html: string };
      if (mail.to === to) return mail;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} in ${dir}`);
}

export function firstLink(text: string): string {
  const m = text.match(/https?:\/\/\S+/);
  if (!m) throw new Error(`no link in: ${text}`);
  return m[0];
}

/** Signs in through the real email-link flow and returns a context carrying the session cookie. */
export async function signIn(baseURL: string, dataDir: string, email: string): Promise<APIRequestContext> {
  const session = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const csrf = await session.get("/api/auth/csrf");
  expect(csrf.ok()).toBeTruthy();
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const start = await session.post("/api/auth/signin/resend", { form: { email, csrfToken, callbackUrl: baseURL } });
  expect(start.status(), await start.text()).toBeLessThan(400);
  const mail = await readOutbox(dataDir, email);
  const back = await session.get(firstLink(mail.text));
  expect(back.status()).toBeLessThan(400);
  const cookies = await session.storageState();
  expect(cookies.cookies.map((c) => c.name)).toContain("authjs.session-token");
  return session;
}

/**
 * A fresh user with a browser session and a real API key, so tests never share data; on the
 * project's server, or on `on` (a test's own server and its data directory).
 */
export async function createUser(info: TestInfo, tag = "user", on?: { baseURL: string; dataDir: string }): Promise<TestUser> {
  const baseURL = on?.baseURL ?? info.project.use.baseURL!;
  const email = randomEmail(tag);
  const session = await signIn(baseURL, on?.dataDir ?? dataDirOf(info), email);
  const created = await session.post("/cookie/v1/apikeys", { data: { name: "e2e" } });
  expect(created.status(), await created.text()).toBe(200);
  const key = (await created.json()) as { key: string };
  const profile = await session.get("/cookie/v1/users/profile");
  const { id } = (await profile.json()) as { id: string };
  return { email, userId: id, apiKey: key.key, session, baseURL };
}

export function bearer(key: string) {
  return { authorization: `Bearer ${key}` };
}

/** Makes the user an administrator the way operators do: npm run user:create -- --admin (through the running server). */
export function makeAdmin(info: TestInfo, user: TestUser): void {
  execFileSync(process.execPath, ["--import", "tsx", "scripts/user-create.ts", "--email", user.email, "--admin"], {
    env: { ...process.env, DATA_DIR: dataDirOf(info), LOG_LEVEL: "silent" },
    stdio: "pipe",
  });
}
