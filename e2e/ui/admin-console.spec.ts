import { expect, test, type Page, type Route } from "@playwright/test";
import { expectAccessible, signedInUser, snap } from "../support/ui";
import { makeAdmin, type TestUser } from "../support/users";

// The course console as its administrators use it: a mailing's failures (who and why, a page at a
// time, and the retry), the lists that grow (Load more), every page at phone width with the
// keyboard, and the empty, loading and error states.
test.describe.configure({ timeout: 120_000 });

async function newCourse(admin: TestUser, slug: string, extra: Record<string, unknown> = {}) {
  const res = await admin.session.put(`/cookie/v1/admin/course/${slug}`, { data: { title: `Course ${slug}`, startsAt: Date.now() + 86_400_000, perkCreditCents: 100, ...extra } });
  expect(res.status(), await res.text()).toBe(200);
}

async function admin(page: Page, info: Parameters<typeof signedInUser>[1]) {
  const user = await signedInUser(page, info, "admin");
  makeAdmin(info, user);
  return user;
}

/** Answers the browser's GETs of `path` (below the cookie base, without query) with `answer(url)`; everything else goes through. */
async function answer(page: Page, path: string, body: (url: URL) => unknown, status = 200) {
  await page.route(
    (url) => url.pathname === `/cookie/v1${path}`,
    async (route: Route) => {
      if (route.request().method() !== "GET") return route.fallback();
      await route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body(new URL(route.request().url()))) });
    },
  );
}

test("a mailing with failures says how many, shows who failed and why on demand (a page at a time), and Retry asks first, then mails them", async ({ page }, info) => {
  const user = await admin(page, info);
  const slug = `e2e-fail-${Date.now()}`;
  await newCourse(user, slug);
  const emails = Array.from({ length: 3 }, (_, i) => `f${i}-${slug}@e2e.example.com`);
  expect((await user.session.post(`/cookie/v1/admin/course/${slug}/eligible`, { data: { emails } })).status()).toBe(200);

  // The provider of this test server never refuses: the mailing with 60 failures is the API's answer, as it would give it.
  const runId = "run-with-failures";
  const run = { id: runId, kind: "day", resend: false, state: "done", total: 63, sent: 3, failed: 60, createdById: user.userId, createdAt: Date.now() - 60_000, finishedAt: Date.now() - 30_000 };
  const failures = Array.from({ length: 60 }, (_, i) => ({ id: `rec${i}`, email: `bounced-${String(i).padStart(2, "0")}@e2e.example.com`, reason: `Resend refused the message: mailbox ${i} does not exist`, attempts: 3 }));
  await answer(page, `/admin/course/${slug}/mail-runs`, () => ({ items: [run], nextCursor: null }));
  await answer(page, `/admin/course/${slug}/mail-runs/${runId}/failures`, (url) =>
    url.searchParams.get("cursor") ? { items: failures.slice(50), nextCursor: null } : { items: failures.slice(0, 50), nextCursor: "1:rec49" },
  );

  await page.goto(`/admin/courses/${slug}`);
  const runs = page.getByTestId("mail-runs");
  await expect(runs).toContainText("3 sent, 60 failed of 63");
  const show = runs.getByRole("button", { name: "Show who failed (60)" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await show.focus();
  await page.keyboard.press("Enter");
  const hide = runs.getByRole("button", { name: "Hide who failed" });
  await expect(hide).toHaveAttribute("aria-expanded", "true");
  await expect(hide).toBeFocused();
  const rows = page.getByTestId("mail-failures").locator("tbody tr");
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText("bounced-00@e2e.example.com");
  await expect(rows.first()).toContainText("mailbox 0 does not exist");
  await page.getByRole("button", { name: "Load more of who failed" }).click();
  await expect(rows).toHaveCount(60);
  await expect(page.getByRole("button", { name: "Load more of who failed" })).toHaveCount(0);
  await expectAccessible(page, "failures shown");
  await page.setViewportSize({ width: 390, height: 844 });
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  await snap(page, info, "failures-390");
  await page.locator("section", { has: page.getByRole("heading", { name: "Mailings" }) }).screenshot({ path: info.outputPath("failures-390-mailings.png") });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Retry: confirmed first (saying whom it reaches), then the same kind again without resend.
  const retry = runs.getByRole("button", { name: "Retry the 60 failed" });
  await retry.click();
  const dialog = page.getByRole("dialog", { name: "Retry the 60 failed?" });
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("confirm-text")).toContainText("the 60 people whose mail failed");
  await expect(page.getByTestId("confirm-text")).toContainText("Nobody it reached already gets it twice");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(retry).toBeFocused();
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/admin/course/${slug}/mail/day`));
  await retry.click();
  await dialog.getByRole("button", { name: "Yes, retry the 60 failed" }).click();
  expect((await sent).postDataJSON()).toEqual({ resend: false });
  // On this server the three signups were never sent a day mail: the retry reaches them.
  await expect(page.getByRole("status").filter({ hasText: "Started: 3 people." })).toBeVisible();
});

test("the course list and the mailings show a page and load the rest on demand, none twice", async ({ page }, info) => {
  const user = await admin(page, info);
  const stamp = Date.now();
  // 51 courses starting after every other test's (latest start first): they fill the first page.
  const slugs = Array.from({ length: 51 }, (_, i) => `e2e-many-${stamp}-${String(i).padStart(2, "0")}`);
  for (const [i, slug] of slugs.entries()) await newCourse(user, slug, { startsAt: Date.UTC(2200, 0, 1) + (stamp % 1_000_000) * 1000 + i * 60_000 });
  await page.goto("/admin");
  const courseRows = page.getByTestId("course-list").locator("tbody tr");
  await expect(courseRows).toHaveCount(50);
  await page.getByRole("button", { name: "Load more courses" }).click();
  await expect(page.getByTestId("course-list")).toContainText(slugs[0]!);
  const shown = await page.getByTestId("course-list").locator("tbody tr td:first-child .muted").allTextContents();
  expect(new Set(shown).size, "no course twice").toBe(shown.length);
  for (const slug of slugs) expect(shown).toContain(slug);

  // 51 mailings of a course without signups (each done at once).
  const slug = slugs[50]!;
  for (let i = 0; i < 51; i++) expect((await user.session.post(`/cookie/v1/admin/course/${slug}/mail/day`, { data: {} })).status()).toBe(200);
  await page.goto(`/admin/courses/${slug}`);
  const runRows = page.getByTestId("mail-run");
  await expect(runRows).toHaveCount(50);
  await page.getByRole("button", { name: "Load older mailings" }).click();
  await expect(runRows).toHaveCount(51);
  await expect(page.getByRole("button", { name: "Load older mailings" })).toHaveCount(0);
});

test("every console page at phone width: a page heading, no sideways scroll, axe clean, the log in words, empty states say so", async ({ page }, info) => {
  const user = await admin(page, info);
  const slug = `e2e-walk-${Date.now()}`;
  await newCourse(user, slug);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of ["/admin", "/admin/log", "/admin/reports", `/admin/courses/${slug}`]) {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page, url).toBeLessThanOrEqual(widths.viewport);
    await expectAccessible(page, url);
    await snap(page, info, `walk-390-${url.split("/").pop()}`);
    // The log says what was done in words, not the API's action codes.
    if (url === "/admin/log") await expect(page.getByTestId("admin-log").locator("tbody tr").filter({ hasText: slug }).first()).toContainText("Saved the course settings");
  }
  // The new course's page: each list says it is empty.
  for (const text of ["No mailing yet.", "No registration matches.", "No two signups share a device or an IP.", "No coupon redeemed yet.", "No idea submitted yet."])
    await expect(page.getByText(text)).toBeVisible();
});

test("a list that cannot load says which, with a Retry that reads it again", async ({ page }, info) => {
  const user = await admin(page, info);
  const slug = `e2e-err-${Date.now()}`;
  await newCourse(user, slug);
  let fail = true;
  await page.route(
    (url) => url.pathname === `/cookie/v1/admin/course/${slug}/ideas`,
    async (route) => {
      if (fail) return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ code: "UNAVAILABLE", message: "The service is restarting; try again in a moment" }) });
      return route.fallback();
    },
  );
  await page.goto(`/admin/courses/${slug}`);
  const ideas = page.locator("section", { has: page.getByRole("heading", { name: "Ideas" }) });
  await expect(ideas.getByRole("alert")).toContainText("The service is restarting");
  fail = false;
  await ideas.getByRole("button", { name: /Retry|Try again/ }).click();
  await expect(ideas.getByText("No idea submitted yet.")).toBeVisible();
});
