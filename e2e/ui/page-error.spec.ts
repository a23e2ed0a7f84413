import { expect, test } from "@playwright/test";
import { expectAccessible, signedInUser, snap } from "../support/ui";

// A page that breaks while rendering (here: an answer the page cannot read, which a proxy or a
// newer server could send) shows the app's error page in its frame, not a blank screen; Try again
// reads everything afresh and the page works again.

test("a page that breaks says so in the app's frame, and Try again reads afresh and shows it", async ({ page }, info) => {
  await signedInUser(page, info);
  let broken = true;
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/cookie/v1/billing/team", async (route) => {
    if (!broken || route.request().method() !== "GET") return route.fallback();
    await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ id: "t1", name: "Half a team", role: "owner" }) });
  });
  await page.goto("/team");
  const error = page.getByTestId("page-error");
  await expect(error.getByRole("heading", { name: "This page stopped working" })).toBeFocused();
  // The shell stays: the sidebar's links still lead elsewhere.
  await expect(page.getByRole("link", { name: "Settings", exact: true })).toBeVisible();
  await snap(page, info, "page-error");
  await expectAccessible(page, "page-error");

  broken = false;
  await error.getByRole("button", { name: "Try again" }).click();
  await expect(error).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "No team yet" })).toBeVisible();
  // What stayed on screen reads afresh too: the sidebar's projects are not left loading.
  await expect(page.getByText("No projects yet.")).toBeVisible();
});
