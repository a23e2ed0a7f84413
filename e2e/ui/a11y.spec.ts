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
