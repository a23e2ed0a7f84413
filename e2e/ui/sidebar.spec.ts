import { expect, test, type Page } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";

// The sidebar's account links reach every account page under app/(app): Settings, API keys, Memory, Team,
// Devices and Billing, marked as the current page where they lead, by keyboard and in the phone menu.

const ACCOUNT_LINKS = [
  ["Settings", "/settings"],
  ["API keys", "/settings/api-keys"],
  ["Memory", "/settings/memory"],
  ["Team", "/team"],
  ["Devices", "/settings/devices"],
  ["Billing", "/billing"],
] as const;

const accountNav = (page: Page) => page.getByRole("complementary", { name: "Sidebar" }).getByRole("navigation", { name: "Account" });

test("the sidebar links every account page, marks the current one, and works by keyboard", async ({ page }, info) => {
  await signedInUser(page, info, "sidebar");
  await page.goto("/settings");
  const nav = accountNav(page);
  await expect(nav.getByRole("link")).toHaveText(ACCOUNT_LINKS.map(([label]) => label));
  for (const [label, href] of ACCOUNT_LINKS) await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);

  // Keyboard: focus the Team link, Enter opens the team page, which the sidebar marks current.
  await nav.getByRole("link", { name: "Team", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/team$/);
  await expect(nav.getByRole("link", { name: "Team", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await snap(page, info, "sidebar-team");

  // Tab from Team reaches Devices next.
  await nav.getByRole("link", { name: "Team", exact: true }).focus();
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Devices", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/settings\/devices$/);
  await expect(nav.getByRole("link", { name: "Devices", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
});

test("on a phone the menu holds Team and Devices, marks the current page, and closes on navigation", async ({ page }, info) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signedInUser(page, info, "sidebar");
  await page.goto("/settings/devices");
  const toggle = page.getByRole("button", { name: "Menu: projects and account" });
  await expect(accountNav(page)).toBeHidden();
  await toggle.click();
  const nav = accountNav(page);
  await expect(nav.getByRole("link", { name: "Devices", exact: true })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Team", exact: true }).scrollIntoViewIfNeeded();
  await snap(page, info, "sidebar-375-menu");
  await nav.getByRole("link", { name: "Team", exact: true }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(nav.getByRole("link", { name: "Team", exact: true })).toHaveAttribute("aria-current", "page");
  await snap(page, info, "sidebar-375-team");
});
