// The browser pages' weight and speed on a production build (issue 11): the JavaScript the todo
// chat and the project page load, and their time to content, each against the sign-in page in the
// same run (a baseline on the same machine, browser and server), and the todo page's JavaScript
// against its budget (199 KB before Markdown, plus 20%).
//
//   npx tsx bench/page.ts [--loads 7]
//
// Needs a production build (`npx next build`; made when missing) and Chromium (CHROMIUM_PATH or
// /usr/bin/chromium). JavaScript is counted as the bytes of every script response a load fetched
// until its content showed (as sent, before any compression a proxy would add).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, request as pwRequest, type Browser, type BrowserContext } from "@playwright/test";
import { firstLink, readOutbox } from "../e2e/support/users.ts";
import { median } from "./lib/load.ts";
import { exitCleanup, stopAll } from "./lib/processes.ts";
import { ensureBuild, startBenchApp } from "./lib/setup.ts";

const root = path.resolve(import.meta.dirname, "..");
const loads = Number(process.argv[process.argv.indexOf("--loads") + 1] || 7);
const BUDGET_KB = 199 * 1.2;

async function signedIn(base: string, dataDir: string, email: string) {
  const session = await pwRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  const { csrfToken } = (await (await session.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await session.post("/api/auth/signin/resend", { form: { email, csrfToken, callbackUrl: base } });
  const mail = await readOutbox(dataDir, email);
  await session.get(firstLink(mail.text));
  return session;
}

type Load = { jsBytes: number; ms: number };

/** One cold load (fresh context: no cache) of `url` until `ready` shows. */
async function load(browser: Browser, state: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined, url: string, ready: string): Promise<Load> {
  const context = await browser.newContext(state ? { storageState: state } : {});
  const page = await context.newPage();
  let jsBytes = 0;
  const pending: Promise<void>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    pending.push(
      res
        .body()
        .then((b) => void (jsBytes += b.length))
        .catch(() => undefined),
    );
  });
  const t0 = Date.now();
  await page.goto(url);
  await page.locator(ready).first().waitFor({ state: "visible", timeout: 60_000 });
  const ms = Date.now() - t0;
  await page.waitForLoadState("networkidle");
  await Promise.all(pending);
  await context.close();
  return { jsBytes, ms };
}

async function main() {
  exitCleanup("bench/page");
  await ensureBuild(root);
  const dataDir = await mkdtemp(path.join(tmpdir(), "bench-page-"));
  const email = `bench-page-${Date.now()}@bench.example.com`;
  const app = await startBenchApp({ root, dataDir, databaseUrl: undefined, email, env: { BILLING_ENABLED: "0" } });
  const session = await signedIn(app.base, dataDir, email);
  const h = { "x-api-key": app.apiKey };
  const project = (await (await session.post("/api/v1/projects", { headers: h, data: { name: "Bench" } })).json()) as { id: string };
  const todo = (await (await session.post(`/api/v1/projects/${project.id}/todos`, { headers: h, data: { content: "Plan the launch" } })).json()) as { id: string };
  for (let i = 0; i < 20; i++) {
    const content = i % 4 === 0 ? `Step ${i}:\n- item one\n- item **two**\n\n\`\`\`ts\nconst step: number = ${i};\n\`\`\`` : `A message with a [link](https://example.com) and \`code\`, number ${i}.`;
    await session.post(`/api/v1/todos/${todo.id}/messages`, { headers: h, data: { content } });
  }
  for (let i = 0; i < 10; i++) await session.post(`/api/v1/projects/${project.id}/todos`, { headers: h, data: { content: `Todo ${i}` } });
  const state = await session.storageState();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const pages = {
      "sign-in (baseline)": { url: `${app.base}/signin`, ready: "h1", state: undefined },
      project: { url: `${app.base}/projects/${project.id}`, ready: '[data-testid="todo-row"]', state },
      "todo chat": { url: `${app.base}/projects/${project.id}/todos/${todo.id}`, ready: '[data-testid="message"]', state },
    };
    const results: Record<string, { kb: number; ms: number }> = {};
    for (const p of Object.values(pages)) await load(browser, p.state, p.url, p.ready); // warm the server
    for (const [name, p] of Object.entries(pages)) {
      const runs: Load[] = [];
      // Interleaved would mix caches of the server; each page's loads run back to back, cold in the browser.
      for (let i = 0; i < loads; i++) runs.push(await load(browser, p.state, p.url, p.ready));
      results[name] = { kb: median(runs.map((r) => r.jsBytes)) / 1024, ms: median(runs.map((r) => r.ms)) };
    }
    const base = results["sign-in (baseline)"]!;
    console.log(`\npage                 JS KB   ×baseline   time to content ms   ×baseline   (median of ${loads} cold loads)`);
    for (const [name, r] of Object.entries(results)) {
      console.log(`${name.padEnd(20)} ${r.kb.toFixed(1).padStart(6)}   ${(r.kb / base.kb).toFixed(2).padStart(9)}   ${r.ms.toFixed(0).padStart(18)}   ${(r.ms / base.ms).toFixed(2).padStart(9)}`);
    }
    const todoKb = results["todo chat"]!.kb;
    console.log(`\ntodo chat JavaScript: ${todoKb.toFixed(1)} KB = ${((todoKb / 199) * 100).toFixed(0)}% of the 199 KB before Markdown (budget ${BUDGET_KB.toFixed(0)} KB: ${todoKb <= BUDGET_KB ? "within" : "OVER"})`);
  } finally {
    await browser.close();
    await stopAll();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
