import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { signedInUser } from "../support/ui";
import { createProject, createTodo, h } from "../support/todos";

// The Content-Security-Policy must let every page work (Next's inline bootstrap, the live socket,
// the reference's fetch of the OpenAPI document) and let no other site frame any of them.

function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

test.describe.configure({ timeout: 120_000 });

test("pages render and run under the policy with no violation, the live connection included", async ({ page }, info) => {
  const violations = cspViolations(page);
  await page.goto("/signin");
  await expect(page.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible();
  await page.goto("/reference");
  // Scalar's chunk and the whole document: as long as e2e/ui/reference.spec.ts allows on two loaded cores.
  await expect(page.getByTestId("api-reference").getByRole("heading", { name: "Todo Service API" })).toBeVisible({ timeout: 30_000 });

  const u = await signedInUser(page, info);
  const p = await createProject(u);
  await page.goto(`/projects/${p.id}`);
  // Live: a todo created through the API appears without a reload, over the WebSocket.
  await createTodo(u, p.id, { content: "Arrives live" });
  await expect(page.getByText("Arrives live")).toBeVisible();
  const t = await createTodo(u, p.id, { content: "Shared" });
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);
  await page.goto(`/share/${t.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shared");
  expect(violations).toEqual([]);
});

test("no page, the public share page included, can be framed by another site", async ({ page, baseURL }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Never framed" });
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);
  // Another site, on this machine (so Chromium's private-network rules do not get in the way):
  // a page that frames whatever ?src names.
  const framer = createServer((req, res) => {
    const src = new URL(req.url ?? "/", "http://x").searchParams.get("src") ?? "";
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><iframe src="${src.replace(/"/g, "")}" width="600" height="400"></iframe>`);
  });
  const framerUrl = await new Promise<string>((resolve) => framer.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(framer.address() as AddressInfo).port}`)));
  try {
    for (const [path, ownText] of [[`/share/${t.id}`, "Never framed"], ["/signin", "Email me a sign-in link"], [`/projects/${p.id}`, "Never framed"]] as const) {
      await page.goto(`${framerUrl}/?src=${encodeURIComponent(`${baseURL}${path}`)}`);
      const frame = await (await page.waitForSelector("iframe")).contentFrame();
      expect(frame, path).toBeTruthy();
      await frame!.waitForLoadState("load");
      // Blocked, the frame holds Chromium's error page instead of our document.
      expect(frame!.url(), path).toMatch(/^chrome-error:/);
      const text = await frame!.evaluate(() => document.body?.innerText ?? "").catch(() => "");
      expect(text, path).not.toContain(ownText);
    }
  } finally {
    await new Promise((r) => framer.close(r));
  }
});
