import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { ZAccountDataExport } from "../../lib/schemas/account";
import { bearer } from "../support/users";
import { createProject, createTodo } from "../support/todos";
import { signedInUser, snap } from "../support/ui";

// Issue 15 in the browser: "Download my data" saves the streamed export; the danger zone deletes
// the account after the email is typed, signs out and shows the goodbye page.

test("settings: download my data, then delete the account with a typed confirmation", async ({ page }, info) => {
  const user = await signedInUser(page, info, "account");
  const project = await createProject(user, "Export me");
  await createTodo(user, project.id, "A todo to take along");

  await page.goto("/settings");
  const data = page.getByRole("region", { name: "Your data", exact: true });
  const downloading = page.waitForEvent("download");
  await data.getByRole("link", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^todo-service-export-\d{4}-\d{2}-\d{2}\.json$/);
  const saved = JSON.parse(await readFile((await download.path())!, "utf8"));
  const parsed = ZAccountDataExport.parse(saved);
  expect(parsed.user.email).toBe(user.email);
  expect(parsed.projects.map((p) => p.name)).toContain("Export me");
  expect(parsed.todos.map((t) => t.content)).toContain("A todo to take along");
  expect(JSON.stringify(saved)).not.toContain(user.apiKey);

  const danger = page.getByRole("region", { name: "Danger zone", exact: true });
  await danger.getByRole("button", { name: "Delete my account…" }).click();
  const confirm = danger.getByLabel(`Type ${user.email} to confirm`);
  await expect(confirm).toBeFocused();
  const submit = danger.getByRole("button", { name: "Delete my account permanently" });
  await confirm.fill("not-my-address@example.test");
  await expect(submit).toBeDisabled();
  await snap(page, info, "danger-zone");
  // Cancel keeps everything.
  await danger.getByRole("button", { name: "Cancel" }).click();
  expect((await page.request.get("/api/v1/users/profile", { headers: bearer(user.apiKey) })).status()).toBe(200);

  await danger.getByRole("button", { name: "Delete my account…" }).click();
  await danger.getByLabel(`Type ${user.email} to confirm`).fill(user.email.toUpperCase());
  await danger.getByRole("button", { name: "Delete my account permanently" }).click();
  await expect(page).toHaveURL(/\/goodbye$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your account is deleted" })).toBeVisible();
  await snap(page, info, "goodbye");

  // Signed out, and every credential is refused.
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/signin/);
  expect((await page.request.get("/api/v1/users/profile", { headers: bearer(user.apiKey) })).status()).toBe(401);
  expect((await user.session.get("/cookie/v1/users/profile")).status()).toBe(401);
});
