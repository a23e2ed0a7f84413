import { expect, test } from "@playwright/test";

// /reference renders the served OpenAPI document, whose server URLs are relative to its origin.
test("the API reference renders each operation's bases and declared statuses, signed out", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/reference");
  const ref = page.getByTestId("api-reference");
  await expect(ref).toBeVisible();
  const get = ref.locator("article#project_get");
  await expect(get).toContainText("Served at: /api/v1, /cookie/v1, /dst/v1");
  await expect(get).toContainText(/Statuses: 200, 400, 401, 403, 404, 429/);
  await expect(ref.locator("article#apiKey_create")).toContainText("Served at: /api/v1, /cookie/v1");
  await expect(ref.locator("article#apiKey_create")).toContainText("409");
  expect(errors).toEqual([]);
});
