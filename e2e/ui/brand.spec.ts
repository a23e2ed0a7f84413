import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { createUser } from "../support/users";
import { createProject, h, shareProject } from "../support/todos";

// The brand page that project settings edit, at /brand/{projectId}: the project's Markdown through
// the app's renderer. Public for a public project; for a private one, its members only (others get
// the 404 of a missing project).

const BRAND = [
  "# Acme Robotics",
  "",
  "We build **careful** robots. ~~Fast~~ Steady.",
  "",
  "| Plan | Price |",
  "| --- | --- |",
  "| Basic | 10 |",
  "",
  "- [x] Safe",
  "- [ ] Loud",
  "",
  "See [our site](https://example.com) and [this](javascript:alert(1)).",
  "",
  "<script>window.__brandInjected = true</script><img src=x onerror=\"window.__brandInjected = true\">",
  "",
  "```js",
  "const answer = 42;",
  "```",
].join("\n");

for (const width of [1280, 375]) {
  test(`the brand page renders the project's Markdown, reached from project settings; members only while private, anyone once public (${width} px)`, async ({ page, browser }, info) => {
    await page.setViewportSize({ width, height: 800 });
    const owner = await signedInUser(page, info, "brand");
    const project = await createProject(owner, "Acme");
    const viewer = await createUser(info, "brand-viewer");
    await shareProject(owner, project.id, viewer.email, "viewer");

    // Not written yet: the page says so.
    await page.goto(`/brand/${project.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "No brand page yet" })).toBeVisible();

    // Written in project settings; the hint links to the page.
    await page.goto(`/projects/${project.id}/settings`);
    await page.getByLabel("Brand page (Markdown)").fill(BRAND);
    await page.getByRole("button", { name: "Save project settings" }).click();
    await expect(page.getByRole("region", { name: "Project settings", exact: true }).getByRole("status")).toHaveText("Saved");
    await page.getByRole("link", { name: "brand page", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/brand/${project.id}$`));

    const content = page.getByTestId("brand-content");
    await expect(content.getByRole("heading", { level: 1, name: "Acme Robotics" })).toBeVisible();
    await expect(page).toHaveTitle("Acme Robotics · Todo Service");
    await expect(content.locator("strong")).toHaveText("careful");
    await expect(content.locator("del")).toHaveText("Fast");
    await expect(content.getByRole("table").getByRole("cell", { name: "Basic" })).toBeVisible();
    await expect(content.getByRole("checkbox")).toHaveCount(2);
    await expect(content.getByRole("checkbox", { name: "Done", exact: true })).toBeChecked();
    await expect(content.getByRole("checkbox", { name: "Not done", exact: true })).not.toBeChecked();
    const site = content.getByRole("link", { name: "our site" });
    await expect(site).toHaveAttribute("href", "https://example.com");
    await expect(site).toHaveAttribute("rel", "noopener noreferrer");
    // No javascript: link, and raw HTML is text, never run.
    expect(await content.getByRole("link", { name: "this" }).getAttribute("href")).not.toMatch(/^javascript:/i);
    await expect(content).toContainText("<script>window.__brandInjected = true</script>");
    expect(await content.locator("script, img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __brandInjected?: boolean }).__brandInjected)).toBeUndefined();
    await expect(content.locator("pre code")).toContainText("const answer = 42;");
    await expect(content.getByRole("button", { name: "Copy code" })).toBeVisible();
    await snap(page, info, `brand-${width}`);

    // Private project: a member (viewer) reads it; a visitor without a session gets the 404 of a missing project.
    const viewerPage = await browser.newPage({ viewport: { width, height: 800 } });
    await viewerPage.context().addCookies((await viewer.session.storageState()).cookies);
    await viewerPage.goto(`/brand/${project.id}`);
    await expect(viewerPage.getByTestId("brand-content").getByRole("heading", { name: "Acme Robotics" })).toBeVisible();
    await viewerPage.close();

    const visitor = await browser.newPage({ viewport: { width, height: 800 } });
    const hidden = await visitor.goto(`/brand/${project.id}`);
    expect(hidden?.status()).toBe(404);
    await expect(visitor.getByTestId("brand-not-found")).toContainText("This brand page is not public or does not exist");
    await snap(visitor, info, `brand-private-${width}`);
    const missing = await visitor.goto(`/brand/cmissingproject0000000000`);
    expect(missing?.status()).toBe(404);
    await expect(visitor.getByTestId("brand-not-found")).toBeVisible();

    // Public project: anyone reads it, without signing in.
    expect((await owner.session.put(`/api/v1/projects/${project.id}`, { headers: h(owner), data: { isPublic: true } })).status()).toBe(200);
    const shown = await visitor.goto(`/brand/${project.id}`);
    expect(shown?.status()).toBe(200);
    await expect(visitor.getByTestId("brand-content").getByRole("heading", { level: 1, name: "Acme Robotics" })).toBeVisible();
    await snap(visitor, info, `brand-public-${width}`);
    await visitor.close();
  });
}
