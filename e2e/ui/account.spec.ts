import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { ZAccountDataExport } from "../../lib/schemas/account";
import { bearer, createUser, dataDirOf, firstLink, readOutbox } from "../support/users";
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

test("the owner of a team with a member is sent to the team before deleting the account, and the API refuses it (409 owns_team)", async ({ page }, info) => {
  const owner = await signedInUser(page, info, "team-owner");
  const member = await createUser(info, "team-member");
  expect((await owner.session.post("/api/v1/billing/team/members", { headers: bearer(owner.apiKey), data: { email: member.email, teamName: "Keepers" } })).status()).toBe(200);
  let token = "";
  await expect
    .poll(async () => {
      const mail = await readOutbox(dataDirOf(info), member.email).catch(() => null);
      token = mail ? (firstLink(mail.text).split("/invite/")[1] ?? "") : "";
      return token;
    })
    .toMatch(/^tti_/);
  expect((await member.session.post("/api/v1/billing/team/invites/accept", { headers: bearer(member.apiKey), data: { token } })).status()).toBe(200);

  await page.goto("/settings");
  const danger = page.getByRole("region", { name: "Danger zone", exact: true });
  await expect(danger.getByTestId("delete-owns-team")).toContainText("You own the team Keepers, which has 1 other member");
  await expect(danger.getByRole("button", { name: "Delete my account…" })).toHaveCount(0);
  await snap(page, info, "danger-zone-team-owner");
  await danger.getByRole("link", { name: "hand the team over" }).click();
  await expect(page).toHaveURL(/\/team$/);

  const refused = await owner.session.delete("/api/v1/users/account", { headers: bearer(owner.apiKey), data: { confirm: owner.email } });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { data: { reason: string; members: number } }).data).toMatchObject({ reason: "owns_team", members: 1 });
  expect((await page.request.get("/api/v1/users/profile", { headers: bearer(owner.apiKey) })).status()).toBe(200);
});
