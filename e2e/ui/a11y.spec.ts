import { expect, test } from "@playwright/test";
import { expectAccessible, signedInUser, snap } from "../support/ui";
import { addMessage, createProject, createTodo, h } from "../support/todos";

// Every page, checked with axe-core: no serious or critical accessibility violations, in the light
// and the dark theme.
test.describe.configure({ timeout: 180_000 });

for (const scheme of ["light", "dark"] as const) {
  test(`every page has no serious or critical violations (${scheme})`, async ({ page }, info) => {
    await page.emulateMedia({ colorScheme: scheme });
    const u = await signedInUser(page, info);
    const p = await createProject(u, "Accessible");
    const t = await createTodo(u, p.id, "Check the pages");
    await addMessage(u, t.id, { content: "A list:\n- one\n- two\n\n```js\nconst x = 1;\n```", startProcessing: false });
    expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);

    const pages: [string, string, string][] = [
      ["home", "/", "main"],
      ["project", `/projects/${p.id}`, '[data-testid="todo-row"]'],
      ["todo chat", `/projects/${p.id}/todos/${t.id}`, '[data-testid="message"]'],
      ["settings", "/settings", "form"],
      ["api keys", "/settings/api-keys", "main"],
      ["devices", "/settings/devices", "main"],
      ["billing", "/billing", "main"],
      ["team", "/team", "main"],
      ["not found", "/no/such/page", '[data-testid="not-found"]'],
    ];
    for (const [name, url, ready] of pages) {
      await page.goto(url);
      await expect(page.locator(ready).first()).toBeVisible();
      await expect(page.locator('[aria-busy="true"][role="status"]')).toHaveCount(0);
      await expectAccessible(page, name);
    }
    await snap(page, info, `a11y-${scheme}`);

    // The project's brand page, public with the project.
    expect((await u.session.put(`/api/v1/settings/projects/${p.id}`, { headers: h(u), data: { brandMarkdown: "# Accessible\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n- [x] done\n\n```js\nconst y = 2;\n```" } })).status()).toBe(200);
    expect((await u.session.put(`/api/v1/projects/${p.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);

    // Signed out: the public share page, the brand page, sign-in and check-email.
    await page.context().clearCookies();
    await page.goto(`/share/${t.id}`);
    await expect(page.getByTestId("message").first()).toBeVisible();
    await expectAccessible(page, "public todo");
    await page.goto(`/brand/${p.id}`);
    await expect(page.getByTestId("brand-content")).toBeVisible();
    await expectAccessible(page, "brand page");
    await page.goto("/signin");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, "sign in");
    await page.getByLabel("Email").fill(`a11y-${scheme}-${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByTestId("check-email-address")).toBeVisible();
    await expectAccessible(page, "check email");
  });
}

test("Skip to content: the first Tab stop, shown when focused; Enter moves focus past the top bar and the sidebar to the page", async ({ page, browser }, info) => {
  await signedInUser(page, info, "skip");
  await page.goto("/settings");
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect(sidebar).toBeVisible();
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).not.toBeInViewport();

  await page.keyboard.press("Tab");
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await snap(page, info, "skip-link-focused");
  await page.keyboard.press("Enter");
  const content = page.locator("#content");
  await expect(content).toBeFocused();
  await expect(page).toHaveURL(/\/settings$/);
  // The next Tab is in the page's own content, not in the sidebar or the top bar.
  await page.keyboard.press("Tab");
  const where = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return { inContent: Boolean(el && el.id !== "content" && document.getElementById("content")?.contains(el)), inSidebar: Boolean(el?.closest("aside")) };
    });
  expect(await where()).toEqual({ inContent: true, inSidebar: false });
  await expect(skip).not.toBeInViewport();

  // A page without the sidebar (signed out): it moves focus to the page's main region.
  const signedOut = await browser.newPage();
  try {
    await signedOut.goto("/signin");
    await expect(signedOut.getByLabel("Email")).toBeVisible();
    await signedOut.keyboard.press("Tab");
    await expect(signedOut.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await signedOut.keyboard.press("Enter");
    await expect(signedOut.getByRole("main")).toBeFocused();
  } finally {
    await signedOut.close();
  }
});
