import { expect, test, type Page } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { bearer, type TestUser } from "../support/users";
import { createProject, createTodo, h, todoIn, waitForReply } from "../support/todos";

// The user's theme (settings `theme`): applied on save, remembered by the browser for every page
// (lib/ui/theme.ts), dark palette from app/globals.css.
test.describe.configure({ timeout: 120_000 });

const LIGHT_BG = "rgb(250, 250, 250)"; // --bg, light
const DARK_BG = "rgb(19, 20, 25)"; // --bg, dark

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const colorScheme = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
const html = (page: Page) => page.locator("html");

/** The page shows `theme`: the attribute ("system" has none) and the background `bg`. */
async function expectTheme(page: Page, theme: "light" | "dark" | "system", bg: string): Promise<void> {
  if (theme === "system") await expect(html(page)).not.toHaveAttribute("data-theme");
  else await expect(html(page)).toHaveAttribute("data-theme", theme);
  await expect.poll(() => bodyBackground(page)).toBe(bg);
}

async function saveTheme(page: Page, theme: "light" | "dark" | "system"): Promise<void> {
  const prefs = page.getByRole("region", { name: "Preferences", exact: true });
  await prefs.getByLabel("Theme").selectOption(theme);
  await prefs.getByRole("button", { name: "Save preferences" }).click();
  await expect(prefs.getByRole("status")).toHaveText("Saved");
}

async function themeCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === "theme")?.value;
}

async function storedTheme(u: TestUser): Promise<string> {
  const res = await u.session.get("/api/v1/settings/user", { headers: bearer(u.apiKey) });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { theme: string }).theme;
}

async function snapBoth(page: Page, info: Parameters<typeof snap>[1], name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, info, name);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("dark: applied at once on save, kept after a reload, on the project view, the todo chat and signed-out pages", async ({ page }, info) => {
  await page.emulateMedia({ colorScheme: "light" });
  const u = await signedInUser(page, info, "theme");
  const p = await createProject(u, "Night shift");
  // Something in every status the list shows, and a conversation with a public link.
  await Promise.all((["PROPOSED", "TODO", "SCHEDULED", "PAUSED", "DONE", "CANCELLED"] as const).map((s) => todoIn(u, p.id, s)));
  const t = await createTodo(u, p.id, { content: "Pack for the trip:\n- Tent\n- Stove\n- Map", startProcessing: true });
  await waitForReply(u, t.id);
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);

  await page.goto("/settings");
  await expectTheme(page, "system", LIGHT_BG);
  expect(await colorScheme(page)).toBe("light");

  await saveTheme(page, "dark");
  // At once, without a reload; native controls follow.
  await expectTheme(page, "dark", DARK_BG);
  expect(await colorScheme(page)).toBe("dark");
  expect(await themeCookie(page)).toBe("dark");
  expect(await storedTheme(u)).toBe("dark");
  // The focus ring is the dark palette's.
  await page.getByRole("region", { name: "Preferences", exact: true }).getByLabel("Theme").focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await snapBoth(page, info, "settings-dark");

  await page.reload();
  await expectTheme(page, "dark", DARK_BG);
  await expect(page.getByRole("region", { name: "Preferences", exact: true }).getByLabel("Theme")).toHaveValue("dark");

  await page.goto(`/projects/${p.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Night shift" })).toBeVisible();
  await expect(page.getByTestId("todo-status").filter({ hasText: "Ready" })).toHaveCount(1);
  await expectTheme(page, "dark", DARK_BG);
  await snapBoth(page, info, "project-dark");

  await page.getByRole("link", { name: /Pack for the trip/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Pack for the trip");
  await expect(page.getByTestId("message")).toHaveCount(2);
  await expectTheme(page, "dark", DARK_BG);
  await snapBoth(page, info, "todo-dark");

  // Signed-out pages follow the choice this browser remembers.
  await page.context().clearCookies({ name: "authjs.session-token" });
  await page.goto(`/share/${t.id}`);
  await expect(page.getByTestId("message")).toHaveCount(2);
  await expectTheme(page, "dark", DARK_BG);
  await snapBoth(page, info, "share-dark");
  await page.goto("/reference");
  await expectTheme(page, "dark", DARK_BG);
});

test("light: overrides a dark system; system follows the operating system", async ({ page }, info) => {
  await page.emulateMedia({ colorScheme: "dark" });
  const u = await signedInUser(page, info, "theme");
  await page.goto("/settings");
  // "system" (the default): no attribute, the media query decides.
  await expectTheme(page, "system", DARK_BG);
  expect(await colorScheme(page)).toBe("dark");
  await page.emulateMedia({ colorScheme: "light" });
  await expectTheme(page, "system", LIGHT_BG);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectTheme(page, "system", DARK_BG);
  await snap(page, info, "settings-system-dark");

  await saveTheme(page, "light");
  await expectTheme(page, "light", LIGHT_BG);
  expect(await colorScheme(page)).toBe("light");
  expect(await themeCookie(page)).toBe("light");
  await page.reload();
  await expectTheme(page, "light", LIGHT_BG);
  await page.goto("/reference");
  await expectTheme(page, "light", LIGHT_BG);

  await page.goto("/settings");
  await saveTheme(page, "system");
  await expectTheme(page, "system", DARK_BG);
  expect(await themeCookie(page)).toBeUndefined();
  expect(await storedTheme(u)).toBe("system");
  await page.reload();
  await expectTheme(page, "system", DARK_BG);
});

test("a theme changed in another browser is corrected before the signed-in page is painted", async ({ page }, info) => {
  await page.emulateMedia({ colorScheme: "light" });
  const u = await signedInUser(page, info, "theme");
  await page.goto("/settings");
  await saveTheme(page, "dark");
  // Elsewhere, the user picks Light; this browser still remembers Dark.
  expect((await u.session.put("/api/v1/settings/user", { headers: bearer(u.apiKey), data: { theme: "light" } })).status()).toBe(200);
  expect(await themeCookie(page)).toBe("dark");

  // The HTML itself carries the correction ahead of the signed-in frame (no flash of dark)…
  const served = await (await page.request.get("/settings")).text();
  const fix = served.indexOf('"data-theme",t');
  expect(fix).toBeGreaterThan(-1);
  expect(fix).toBeLessThan(served.indexOf('class="shell"'));
  // …and the browser then remembers Light.
  await page.goto("/settings");
  await expectTheme(page, "light", LIGHT_BG);
  expect(await themeCookie(page)).toBe("light");
  // Once they agree, the page carries no correction.
  expect(await (await page.request.get("/settings")).text()).not.toContain('"data-theme",t');
});
