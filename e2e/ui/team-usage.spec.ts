import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { bearer, createUser, dataDirOf, firstLink, readOutbox } from "../support/users";
import { createProject, createTodo, waitForStatus } from "../support/todos";

// Issue 13: the team's shared spend pool in the browser: the owner's team page shows each member's
// spend from the pool as a chart and a table; a member's billing page says the pool pays.
test.describe.configure({ timeout: 120_000 });

test("a member's agent turn shows on the owner's team usage chart, and the member's billing page names the pool", async ({ page, browser }, info) => {
  const owner = await signedInUser(page, info, "pool-owner");
  const member = await createUser(info, "pool-member");
  const invite = await owner.session.post("/api/v1/billing/team/members", { headers: bearer(owner.apiKey), data: { email: member.email, teamName: "Pool crew" } });
  expect(invite.status(), await invite.text()).toBe(200);
  let link = "";
  await expect
    .poll(async () => {
      const mail = await readOutbox(dataDirOf(info), member.email).catch(() => null);
      link = mail?.subject.includes("invited you") ? firstLink(mail.text) : "";
      return link;
    })
    .toContain("/invite/tti_");
  const accepted = await member.session.post("/api/v1/billing/team/invites/accept", { headers: bearer(member.apiKey), data: { token: link.split("/invite/")[1] } });
  expect(accepted.status(), await accepted.text()).toBe(200);

  const project = await createProject(member, "Member's work");
  const todo = await createTodo(member, project.id, { content: "Plan the week:\n- gym\n- groceries", startProcessing: true });
  await waitForStatus(member, todo.id, "READY");

  await page.goto("/team");
  const usage = page.getByTestId("team-usage");
  await expect(usage.locator("tr", { hasText: member.email })).toContainText("1");
  await expect(page.getByTestId("team-usage-total")).toContainText("1 turn,");
  await expect(page.getByRole("img", { name: "Spend per day, stacked by member" })).toBeVisible();
  await page.getByLabel("Usage range").selectOption("7");
  await expect(usage.locator("tr", { hasText: member.email })).toContainText("1");
  await page.getByRole("heading", { name: "Usage" }).scrollIntoViewIfNeeded();
  await snap(page, info, "team-usage");

  const other = await browser.newContext({ baseURL: info.project.use.baseURL });
  await other.addCookies((await member.session.storageState()).cookies);
  const memberPage = await other.newPage();
  await memberPage.goto("/billing");
  await expect(memberPage.getByTestId("team-pool")).toContainText("shared pool");
  await expect(memberPage.getByRole("checkbox", { name: /Extra spend/ })).toHaveCount(0);
  // A member is not shown the team's usage.
  await memberPage.goto("/team");
  await expect(memberPage.getByTestId("team-summary")).toContainText("you are a member");
  await expect(memberPage.getByTestId("team-usage")).toHaveCount(0);
  await other.close();
});
