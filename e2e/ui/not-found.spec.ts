import { expect, test, type Page } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { createProject, MISSING_ID } from "../support/todos";

// A todo or project that does not exist (or that the user may not read) is answered by the page
// itself: one request (the page's own, 404) and a clear not-found state, with no API reads or
// subscriptions about the missing id that can only 404.

/** The browser's requests whose address names `id`, with their answers' statuses. */
function requestsNaming(page: Page, id: string): { url: string; status: number }[] {
  const seen: { url: string; status: number }[] = [];
  page.on("requestfinished", (r) => {
    if (!r.url().includes(id)) return;
    void r.response().then((res) => seen.push({ url: new URL(r.url()).pathname, status: res?.status() ?? 0 }));
  });
  return seen;
}

test("an unknown todo: one request, 404, and 'Todo not found' with the way back", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const seen = requestsNaming(page, MISSING_ID);
  const response = await page.goto(`/projects/${p.id}/todos/${MISSING_ID}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Todo not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the project" })).toHaveAttribute("href", `/projects/${p.id}`);
  await page.waitForLoadState("networkidle");
  expect(seen).toEqual([{ url: `/projects/${p.id}/todos/${MISSING_ID}`, status: 404 }]);
  await snap(page, info, "todo-not-found");
  await page.setViewportSize({ width: 375, height: 812 });
  await snap(page, info, "todo-not-found-375");
});

test("an unknown project: one request, 404, and 'Project not found' with the way back", async ({ page }, info) => {
  await signedInUser(page, info);
  const seen = requestsNaming(page, MISSING_ID);
  const response = await page.goto(`/projects/${MISSING_ID}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Project not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to your projects" })).toHaveAttribute("href", "/");
  await page.waitForLoadState("networkidle");
  expect(seen).toEqual([{ url: `/projects/${MISSING_ID}`, status: 404 }]);
  await snap(page, info, "project-not-found");
  await page.setViewportSize({ width: 375, height: 812 });
  await snap(page, info, "project-not-found-375");
});
