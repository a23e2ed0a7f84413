import { expect, test } from "@playwright/test";
import { dataDirOf, firstLink, randomEmail, readOutbox } from "../support/users";

test("sign in through the emailed link, see projects, sign out", async ({ page }, info) => {
  const email = randomEmail("ui");
  await page.goto("/");
  await page.getByRole("link", { name: "Sign in with your email" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByTestId("outbox-note")).toContainText("data/outbox/");
  await page.screenshot({ path: info.outputPath("signin.png"), fullPage: true });

  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await page.screenshot({ path: info.outputPath("check-email.png"), fullPage: true });

  const mail = await readOutbox(dataDirOf(info), email);
  expect(mail.subject).toBe("Sign in to Todo Service");
  await page.goto(firstLink(mail.text));
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);
  await expect(page.getByText("No projects yet.")).toBeVisible();

  // A project created through the cookie API from this page's session shows on the next load.
  const created = await page.request.post("/cookie/v1/projects", { data: { name: "Browser project" }, headers: { origin: new URL(page.url()).origin } });
  expect(created.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("project-list")).toContainText("Browser project");
  await page.screenshot({ path: info.outputPath("home.png"), fullPage: true });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in with your email" })).toBeVisible();
  expect((await page.request.get("/cookie/v1/projects")).status()).toBe(401);
});

test("an invalid email is refused on the page", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").fill("not-an-email");
  // The browser's own validation blocks the submit; nothing is sent.
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page).toHaveURL(/\/signin/);
  expect(await page.getByLabel("Email").evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
});

test("an address the server refuses keeps where the visitor was going", async ({ page }) => {
  await page.goto(`/signin?next=${encodeURIComponent("/invite/tti_kept")}`);
  // The browser takes it (no dot needed there); the server's check does not.
  await page.getByLabel("Email").fill("someone@localhost");
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That is not an email address we can send a link to." })).toBeVisible();
  const url = new URL(page.url());
  expect(url.pathname).toBe("/signin");
  expect(url.searchParams.get("next")).toBe("/invite/tti_kept");
  await expect(page.locator('input[name="next"]')).toHaveValue("/invite/tti_kept");
});

test("a signed-out deep link goes to sign-in and, through the emailed link, back to the page asked for", async ({ page }, info) => {
  const email = randomEmail("deep");
  await page.goto("/settings?tab=devices");
  await expect(page).toHaveURL(/\/signin\?next=/);
  expect(new URL(page.url()).searchParams.get("next")).toBe("/settings?tab=devices");
  await expect(page.locator('input[name="next"]')).toHaveValue("/settings?tab=devices");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await page.goto(firstLink((await readOutbox(dataDirOf(info), email)).text));
  await expect(page).toHaveURL(/\/settings\?tab=devices$/);
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);

  // The admin console's own layout does the same.
  await page.context().clearCookies();
  await page.goto("/admin/log");
  expect(new URL(page.url()).searchParams.get("next")).toBe("/admin/log");
});
