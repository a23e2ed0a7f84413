import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { createUser, dataDirOf, makeAdmin, readOutbox, type TestUser } from "../support/users";

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
  // A double click submits once: the button is disabled while the first submission is on its way.
  await wall.getByRole("button", { name: "Submit idea" }).dblclick();
  await expect(wall.getByTestId("ideas-wall")).toContainText("A session on keyboard shortcuts");
  await expect(wall.getByLabel("Your idea")).toHaveValue("");
  await expect(wall.getByRole("button", { name: "Submit idea" })).toBeEnabled();
  await wall.reload();
  await expect(wall.getByTestId("ideas-wall").getByRole("listitem")).toHaveCount(1);

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

test("a course's long page has a bar of its sections that stays at the top: a link, by keyboard, brings its section's heading into view below the bar", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-jump-${Date.now()}`;
  await newCourse(admin, slug);
  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/admin/courses/${slug}`);
    const bar = page.getByRole("navigation", { name: "Sections of this course" });
    await expect(bar.getByRole("link")).toHaveText(["Counts", "Settings", "Actions", "Mailings", "Registrations", "Coupon code", "Audit", "Followers", "Ideas", "Admin log"]);
    for (const [link, heading] of [["Admin log", "Admin log"], ["Registrations", "Registrations"], ["Followers", "Followers snapshot"]] as const) {
      await bar.getByRole("link", { name: link, exact: true }).focus();
      await page.keyboard.press("Enter");
      const target = page.getByRole("heading", { name: heading, exact: true });
      await expect(target).toBeInViewport();
      // The bar stayed at the top, and the heading is below it, not under it.
      await expect.poll(async () => (await bar.boundingBox())!.y).toBeLessThanOrEqual(1);
      const barBottom = (await bar.boundingBox())!.y + (await bar.boundingBox())!.height;
      expect((await target.boundingBox())!.y, `${link} at ${width}px`).toBeGreaterThanOrEqual(barBottom - 1);
      // The bar marks the section being read, and only that one (in view within the bar on a phone).
      await expect(bar.locator('[aria-current="location"]')).toHaveText(link);
      await expect(bar.getByRole("link", { name: link, exact: true })).toBeInViewport();
    }
    // Scrolling back to the top marks the first section again.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(bar.locator('[aria-current="location"]')).toHaveText("Counts");
    // On a phone the bar is one line that scrolls sideways inside itself; the page does not.
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect((await bar.boundingBox())!.height).toBeLessThan(60);
    await snap(page, info, `course-sections-${width}`);
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

test.describe("in New York", () => {
  test.use({ timezoneId: "America/New_York" });

  test("an admin sets the start, attendee code and perk on the course page (local time); the mails carry them", async ({ page }, info) => {
    const admin = await signedInUser(page, info, "admin");
    makeAdmin(info, admin);
    const slug = `e2e-settings-${Date.now()}`;
    await newCourse(admin, slug);
    const attendee = `a-${slug}@e2e.example.com`;
    expect((await admin.session.post(`/cookie/v1/admin/course/${slug}/eligible`, { data: { emails: [attendee] } })).status()).toBe(200);

    await page.goto(`/admin/courses/${slug}`);
    const settings = page.getByRole("form", { name: "Settings" });
    await expect(settings).toContainText("America/New_York");
    await settings.getByLabel("Starts").fill("2027-03-01T10:00");
    await settings.getByLabel("Attendee code").fill("KEY-4711");
    await settings.getByLabel("Code works until").fill("2027-03-02T18:30");
    await settings.getByLabel("Perk credit (USD)").fill("12.50");
    await settings.getByLabel("Perk description").fill("12.50 of credit");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect(settings.getByRole("status")).toHaveText("Saved");

    const saved = (await (await admin.session.get(`/cookie/v1/admin/course/${slug}`)).json()) as Record<string, unknown>;
    // 10:00 in New York on 1 March 2027 (EST, UTC-5) is 15:00 UTC.
    expect(saved).toMatchObject({ startsAt: Date.UTC(2027, 2, 1, 15, 0), attendeeCode: "KEY-4711", attendeeCodeEnd: Date.UTC(2027, 2, 2, 23, 30), perkCreditCents: 1250, perkDescription: "12.50 of credit" });
    await page.reload();
    await expect(page.getByRole("form", { name: "Settings" }).getByLabel("Starts")).toHaveValue("2027-03-01T10:00");

    // The attendee-code mail needed a code no console control could set (409 before).
    await page.getByRole("button", { name: "Mail the attendee code" }).click();
    await page.getByRole("button", { name: "Yes, mail the attendee code" }).click();
    await expect(page.getByTestId("mail-runs")).toContainText("1 sent of 1", { timeout: 30_000 });
    const mail = await readOutbox(dataDirOf(info), attendee);
    expect(mail.text).toContain("KEY-4711");
    expect(mail.text).toContain("2027-03-02 23:30 UTC");
    await snap(page, info, "course-settings-saved");
  });
});

test("the settings form says what is wrong in words, and saves nothing", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-settings-bad-${Date.now()}`;
  await newCourse(admin, slug);
  await page.goto(`/admin/courses/${slug}`);
  const settings = page.getByRole("form", { name: "Settings" });
  await settings.getByLabel("Title").fill(" ");
  await settings.getByLabel("Perk credit (USD)").fill("-3");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByRole("alert")).toHaveText("Title: must not be empty; Perk credit: an amount in dollars, like 5 or 12.50");
  const course = (await (await admin.session.get(`/cookie/v1/admin/course/${slug}`)).json()) as { title: string; perkCreditCents: number };
  expect(course).toMatchObject({ title: `Course ${slug}`, perkCreditCents: 100 });
});

test("creating a course with a slug that exists refuses, and leaves that course's code and perk as they were", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-taken-${Date.now()}`;
  const put = await admin.session.put(`/cookie/v1/admin/course/${slug}`, {
    data: { title: "Taken", startsAt: Date.now() + 86_400_000, attendeeCode: "KEEP-ME", perkCreditCents: 700, perkDescription: "7 of credit" },
  });
  expect(put.status()).toBe(200);

  await page.goto("/admin");
  await page.getByLabel("Slug").fill(slug);
  await page.getByLabel("Title").fill("Another course");
  await page.getByLabel("Starts").fill("2027-05-01T09:00");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("alert").filter({ hasText: `A course “${slug}” exists already` })).toBeVisible();
  const after = (await (await admin.session.get(`/cookie/v1/admin/course/${slug}`)).json()) as Record<string, unknown>;
  expect(after).toMatchObject({ title: "Taken", attendeeCode: "KEEP-ME", perkCreditCents: 700, perkDescription: "7 of credit" });

  // A new slug is created and opens its page, where the code and perk are set.
  await page.getByLabel("Slug").fill(`${slug}-b`);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/courses/${slug}-b$`));
  await expect(page.getByRole("heading", { name: "Another course", level: 1 })).toBeVisible();
});

test("keyboard only: an action's confirmation holds focus, Escape cancels it, and focus comes back to the action's button", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-kbd-${Date.now()}`;
  await newCourse(admin, slug);
  await page.goto(`/admin/courses/${slug}`);
  const action = page.getByRole("button", { name: "Grant perks now" });
  await action.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Grant perks now?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(action).toBeFocused();

  // Confirmed with the keyboard: the outcome is announced and focus is back on the button.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Yes, grant perks now" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Granted 0" })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(action).toBeFocused();
});

test("keyboard only: Next in the registrations keeps focus while the next page loads", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-regs-${Date.now()}`;
  await newCourse(admin, slug);
  const emails = Array.from({ length: 110 }, (_, i) => `r${String(i).padStart(3, "0")}-${slug}@e2e.example.com`);
  expect((await admin.session.post(`/cookie/v1/admin/course/${slug}/eligible`, { data: { emails } })).status()).toBe(200);
  await page.goto(`/admin/courses/${slug}`);
  const regs = page.locator("section", { has: page.getByRole("heading", { name: "Registrations" }) });
  await expect(regs).toContainText("1–50 of 110");
  const next = regs.getByRole("button", { name: "Next" });
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(regs).toContainText("51–100 of 110");
  await expect(next).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(regs).toContainText("101–110 of 110");
  await expect(regs.getByTestId("registrations").locator("tbody tr")).toHaveCount(10);
});

test("an admin looks up a coupon code a person quotes: whom it was made for and when it was mailed; an unknown code says so", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-coupon-${Date.now()}`;
  await newCourse(admin, slug);
  const person = `p-${slug}@e2e.example.com`;
  expect((await admin.session.post(`/cookie/v1/admin/course/${slug}/eligible`, { data: { emails: [person] } })).status()).toBe(200);
  expect((await admin.session.post(`/cookie/v1/admin/course/${slug}/coupons`, { data: {} })).status()).toBe(200);
  const mail = await readOutbox(dataDirOf(info), person, 30_000);
  const code = /Your coupon code: (\S+)/.exec(mail.text)?.[1];
  expect(code, mail.text).toBeTruthy();

  await page.goto(`/admin/courses/${slug}`);
  const lookup = page.getByRole("form", { name: "Coupon code" });
  await lookup.getByLabel("Code").fill(code!.toLowerCase());
  await lookup.getByLabel("Code").press("Enter");
  const audit = lookup.getByTestId("coupon-audit");
  await expect(audit).toContainText(person);
  await expect(audit).toContainText(code!);
  await expect(audit.locator("dt", { hasText: /^Mailed$/ }).locator("xpath=following-sibling::dd[1]")).not.toHaveText("no");

  await lookup.getByLabel("Code").fill("NOPE-NOPE-NOPE");
  await lookup.getByRole("button", { name: "Look up" }).click();
  await expect(lookup.getByRole("alert")).toHaveText("No coupon “NOPE-NOPE-NOPE”.");
  await expect(audit).toHaveCount(0);
  await snap(page, info, "coupon-lookup");
});

test("replacing the follower snapshot asks first, saying what it replaces; Cancel keeps it; the audit's count follows", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const slug = `e2e-followers-${Date.now()}`;
  await newCourse(admin, slug);
  expect((await admin.session.put(`/cookie/v1/admin/course/${slug}/followers`, { data: { handles: ["alice", "bob", "carol"] } })).status()).toBe(200);
  await page.goto(`/admin/courses/${slug}`);
  const audit = page.locator("section", { has: page.getByRole("heading", { name: "Audit" }) });
  await expect(audit).toContainText("Follower snapshot: 3 handles.");

  const form = page.getByRole("form", { name: "Followers snapshot" });
  await form.getByLabel(/Handles of the Page/).fill("dave");
  const replace = form.getByRole("button", { name: "Replace snapshot" });
  await replace.click();
  const dialog = page.getByRole("dialog", { name: "Replace the follower snapshot?" });
  await expect(dialog).toContainText("The current snapshot of 3 handles is replaced by this 1 handle");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(replace).toBeFocused();
  const kept = (await (await admin.session.get(`/cookie/v1/admin/course/${slug}/audit`)).json()) as { followerSnapshot: { count: number } };
  expect(kept.followerSnapshot.count).toBe(3);

  await replace.click();
  await dialog.getByRole("button", { name: "Yes, replace it" }).click();
  await expect(form.getByRole("status")).toHaveText("Snapshot replaced: 1 handles.");
  await expect(audit).toContainText("Follower snapshot: 1 handles.");
});

test("removing an administrator asks first; Cancel keeps the role", async ({ page }, info) => {
  const admin = await signedInUser(page, info, "admin");
  makeAdmin(info, admin);
  const other = await createUser(info, "other-admin");
  makeAdmin(info, other);
  const isAdmin = async () => ((await (await other.session.get("/cookie/v1/users/profile")).json()) as { isAdmin: boolean }).isAdmin;
  expect(await isAdmin()).toBe(true);

  await page.goto("/admin");
  await page.getByLabel("Account email").fill(other.email);
  const remove = page.getByRole("button", { name: "Remove administrator" });
  await remove.click();
  const dialog = page.getByRole("dialog", { name: "Remove administrator?" });
  await expect(dialog).toContainText(`${other.email} can no longer use the course console`);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  expect(await isAdmin()).toBe(true);

  await remove.click();
  await dialog.getByRole("button", { name: "Yes, remove" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${other.email} is no longer an administrator.` })).toBeVisible();
  expect(await isAdmin()).toBe(false);
});
