import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { createUser, makeAdmin, type TestUser } from "../support/users";

// Issue 16: the admin console in a real Chromium: the refusal page for a non-admin; an admin mails
// coupons and watches the progress bar reach 100% (and still there after a reload); hiding an idea
// removes it from the public wall.
test.describe.configure({ timeout: 120_000 });

async function newCourse(admin: TestUser, slug: string) {
  const res = await admin.session.put(`/cookie/v1/admin/course/${slug}`, { data: { title: `Course ${slug}`, startsAt: Date.now() + 86_400_000, perkCreditCents: 100 } });
  expect(res.status(), await res.text()).toBe(200);
}

test("a signed-in non-admin gets the refusal page, not the console", async ({ page }, info) => {
  await signedInUser(page, info, "notadmin");
  await page.goto("/admin");
  await expect(page.getByTestId("admin-refused")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Administrators only" })).toBeVisible();
  await expect(page.getByTestId("course-list")).toHaveCount(0);
  await snap(page, info, "refused");
});

test("an admin mails coupons to 30 signups after a confirmation saying so, and the progress bar reaches 100%, also after a reload", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-${Date.now()}`;
  await newCourse(admin, slug);
  const emails = Array.from({ length: 30 }, (_, i) => `c${i}-${slug}@e2e.example.com`);
  const tagged = await admin.session.post(`/cookie/v1/admin/course/${slug}/eligible`, { data: { emails } });
  expect(tagged.status(), await tagged.text()).toBe(200);

  await page.goto(`/admin/courses/${slug}`);
  await expect(page.getByTestId("course-stats")).toContainText("30 signups");
  await page.getByRole("button", { name: "Mail coupons" }).click();
  await expect(page.getByTestId("confirm-text")).toContainText("reaches 30 people");
  await page.getByRole("button", { name: "Yes, mail coupons" }).click();
  const bar = page.getByTestId("mail-progress").first();
  await expect(bar).toHaveAttribute("data-percent", "100", { timeout: 60_000 });
  await expect(page.getByTestId("mail-runs")).toContainText("30 sent of 30");
  await page.reload();
  await expect(page.getByTestId("mail-progress").first()).toHaveAttribute("data-percent", "100");
  await expect(page.getByTestId("course-stats")).toContainText("30 coupons mailed");
  await snap(page, info, "coupons-done");
});

test("an admin hides an idea and the public wall no longer shows it", async ({ page, browser }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-ideas-${Date.now()}`;
  await newCourse(admin, slug);

  const author = await createUser(info, "author");
  const visitorContext = await browser.newContext();
  await visitorContext.addCookies((await author.session.storageState()).cookies);
  const wall = await visitorContext.newPage();
  await wall.goto(`/courses/${slug}`);
  await wall.getByLabel("Your idea").fill("A session on keyboard shortcuts");
  await wall.getByRole("button", { name: "Submit idea" }).click();
  await expect(wall.getByTestId("ideas-wall")).toContainText("A session on keyboard shortcuts");

  await page.goto(`/admin/courses/${slug}`);
  const idea = page.getByTestId("admin-ideas").getByRole("listitem").filter({ hasText: "keyboard shortcuts" });
  await idea.getByRole("button", { name: "Hide" }).click();
  await expect(idea).toContainText("hidden");
  await expect(idea.getByRole("button", { name: "Unhide" })).toBeVisible();

  await wall.reload();
  await expect(wall.getByText("No ideas yet. Be the first.")).toBeVisible();
  await expect(wall.getByText("A session on keyboard shortcuts")).toHaveCount(0);
  await visitorContext.close();
});

test("at phone width the console's tables scroll inside their cards; the page itself never scrolls sideways", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-narrow-${Date.now()}`;
  await newCourse(admin, slug);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [url, table] of [["/admin", "course-list"], ["/admin/log", "admin-log"], [`/admin/courses/${slug}`, "admin-log"]] as const) {
    await page.goto(url);
    await expect(page.getByTestId(table)).toBeVisible();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page, url).toBeLessThanOrEqual(widths.viewport);
    await snap(page, info, `admin-390-${url.split("/").pop()}`);
  }
});

test("the Remove administrator button reads clearly: red on the card, not red on the accent blue (light and dark)", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/admin");
    await page.getByLabel("Account email").fill("someone@e2e.example.com");
    const remove = page.getByRole("button", { name: "Remove administrator" });
    await expect(remove).toBeEnabled();
    const result = await new AxeBuilder({ page }).include("form:has(#admin-email) button").withRules(["color-contrast"]).analyze();
    expect(result.violations.map((v) => v.nodes.map((n) => n.failureSummary)), scheme).toEqual([]);
    await snap(page, info, `admin-remove-${scheme}`);
  }
});

test("a course's admin log shows the newest 50 entries and loads older ones on demand, none twice", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-log-${Date.now()}`;
  // 53 saves of the course: 53 entries in its log.
  for (let i = 0; i < 53; i++) await newCourse(admin, slug);
  await page.goto(`/admin/courses/${slug}`);
  const rows = page.getByTestId("admin-log").locator("tbody tr");
  await expect(rows).toHaveCount(50);
  await page.getByRole("button", { name: "Load older entries" }).click();
  await expect(rows).toHaveCount(53);
  await expect(page.getByRole("button", { name: "Load older entries" })).toHaveCount(0);
  await snap(page, info, "admin-log-all");
});
