import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { expectAccessible, signedInUser, snap } from "../support/ui";
import { bearer, createUser, dataDirOf, firstLink, readOutbox, type TestUser } from "../support/users";
import { createProject, createTodo } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";

// Issue 13: the team page (/team) and the invite page (/invite/<token>) in a real Chromium, with
// the invitee in a second browser context.
test.describe.configure({ timeout: 120_000 });

const sidebar = (page: Page) => page.getByTestId("project-list");

async function inviteLink(dataDir: string, email: string): Promise<string> {
  let link = "";
  await expect
    .poll(async () => {
      const mail = await readOutbox(dataDir, email).catch(() => null);
      link = mail?.subject.includes("invited you") ? firstLink(mail.text) : "";
      return link;
    })
    .toContain("/invite/tti_");
  return link;
}

test("invite a member, accept from the outbox link in a second browser, share a project in both sidebars, remove the member and see it vanish", async ({ page, browser }, info) => {
  const owner = await signedInUser(page, info, "owner");
  const project = await createProject(owner, "Team launch");

  await page.goto("/team");
  await expect(page.getByRole("heading", { name: "No team yet" })).toBeVisible();
  const member = await createUser(info, "member");
  await page.getByLabel("Team name (optional)").fill("Launch crew");
  await page.getByLabel("Email to invite").fill(member.email);
  await page.getByRole("button", { name: "Send invite" }).click();
  await expect(page.getByTestId("team-summary")).toContainText("Launch crew: you are the owner");
  await expect(page.getByTestId("team-invite")).toContainText(member.email);

  // The invitee, signed in in another browser context, follows the mailed link.
  const link = await inviteLink(dataDirOf(info), member.email);
  const other = await browser.newContext({ baseURL: info.project.use.baseURL });
  await other.addCookies((await member.session.storageState()).cookies);
  const memberPage = await other.newPage();
  await memberPage.goto(link);
  await expect(memberPage.getByTestId("invite")).toContainText(`invited ${member.email} to the team Launch crew`);
  await memberPage.getByRole("button", { name: "Accept and join Launch crew" }).click();
  await expect(memberPage.getByRole("status").filter({ hasText: "You joined Launch crew" })).toBeVisible();
  await snap(memberPage, info, "invite-accepted");

  // The owner sees the member (live) and picks the shared project; both sidebars show it.
  await expect(page.getByTestId("team-member").filter({ hasText: member.email })).toBeVisible();
  await page.getByLabel("Team project").selectOption(project.id);
  await memberPage.goto("/team");
  await expect(memberPage.getByTestId("team-project")).toHaveText("Team launch");
  await expect(sidebar(memberPage).getByRole("link", { name: "Team launch" })).toBeVisible();
  await expect(sidebar(page).getByRole("link", { name: "Team launch" })).toBeVisible();
  // A member is offered no owner's or admin's controls.
  await expect(memberPage.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await expect(memberPage.getByLabel("Email to invite")).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: "Leave the team" })).toBeVisible();
  await snap(page, info, "team-owner");

  // Removed, the member's sidebar loses the project without a reload.
  await page.getByRole("button", { name: `Remove ${member.email}` }).click();
  const remove = page.getByRole("dialog", { name: `Remove ${member.email} from Launch crew?` });
  await expect(remove).toContainText("They lose the team's shared project at once");
  await snap(page, info, "team-remove-dialog");
  await expectAccessible(page, "team-remove-dialog");
  await remove.getByRole("button", { name: "Remove" }).click();
  await expect(remove).toBeHidden();
  await expect(page.getByTestId("team-member").filter({ hasText: member.email })).toHaveCount(0);
  await expect(sidebar(memberPage).getByRole("link", { name: "Team launch" })).toHaveCount(0);
  await expect(sidebar(page).getByRole("link", { name: "Team launch" })).toBeVisible();
  await other.close();
});

const api = (u: TestUser) => ({ authorization: `Bearer ${u.apiKey}` });

/** A member signed in on `page`, invited by `owner` to the team "Crew" (made here), whose shared project is `projectId`. */
async function joinTeamProject(page: Page, info: TestInfo, owner: TestUser, projectId: string) {
  const member = await signedInUser(page, info, "member");
  expect((await owner.session.post("/api/v1/billing/team/members", { headers: api(owner), data: { email: member.email, teamName: "Crew" } })).status()).toBe(200);
  const token = (await inviteLink(dataDirOf(info), member.email)).split("/invite/")[1]!;
  const joined = await member.session.post("/api/v1/billing/team/invites/accept", { headers: api(member), data: { token } });
  expect(joined.status(), await joined.text()).toBe(200);
  const memberId = ((await joined.json()) as { members: { id: string; userId: string }[] }).members.find((m) => m.userId === member.userId)!.id;
  expect((await owner.session.patch("/api/v1/billing/team/project", { headers: api(owner), data: { projectId } })).status()).toBe(200);
  return { member, memberId };
}

test("a Max subscriber is told before and after joining that their own plan ends; a hand-over offered waits until the member accepts to pay for the team", async ({ page, browser }, info) => {
  const owner = await signedInUser(page, info, "owner");
  const member = await createUser(info, "max-member");
  const api = (u: TestUser, path: string, data: unknown) => u.session.post(`/api/v1${path}`, { headers: bearer(u.apiKey), data });
  for (const [path, data] of [["/billing/setup-payment-method", { paymentMethodId: "pm_card_visa" }], ["/billing/subscription", { tier: "max" }]] as const) {
    const r = await api(member, path, data);
    expect(r.status(), await r.text()).toBe(200);
  }
  expect((await api(owner, "/billing/team/members", { email: member.email, teamName: "Pool crew" })).status()).toBe(200);

  const other = await browser.newContext({ baseURL: info.project.use.baseURL });
  await other.addCookies((await member.session.storageState()).cookies);
  const memberPage = await other.newPage();
  await memberPage.goto(await inviteLink(dataDirOf(info), member.email));
  await expect(memberPage.getByTestId("invite-plan-notice")).toContainText("so you will not need your own Max plan: joining sets it to end on");
  await snap(memberPage, info, "invite-plan-notice");
  await expectAccessible(memberPage, "invite-plan-notice");
  await memberPage.getByRole("button", { name: "Accept and join Pool crew" }).click();
  await expect(memberPage.getByRole("status").filter({ hasText: "You joined Pool crew" })).toContainText(/Your Max plan ends on .+ and will not renew/);
  await snap(memberPage, info, "invite-plan-ended");
  await expectAccessible(memberPage, "invite-plan-ended");

  // The billing page says why, and offers no way to keep the plan while the pool pays.
  await memberPage.goto("/billing");
  await expect(memberPage.getByTestId("plan-team-note")).toContainText("paid by your team's shared pool");
  await expect(memberPage.getByRole("button", { name: "Keep Max" })).toBeDisabled();
  await snap(memberPage, info, "billing-plan-paid-by-team");
  await expectAccessible(memberPage, "billing-plan-paid-by-team");

  // The owner offers the team: nothing changes until the member accepts.
  await page.goto("/team");
  const role = page.getByLabel(`Role of ${member.email}`);
  await role.focus();
  await role.selectOption("owner");
  const offer = page.getByRole("dialog", { name: `Offer Pool crew to ${member.email}?` });
  await expect(offer).toContainText("Nothing changes until they accept");
  await expect(offer.getByRole("button", { name: "Cancel" })).toBeFocused();
  // Escape keeps things as they were: no offer, the member's role shown again, focus back on the select.
  await page.keyboard.press("Escape");
  await expect(offer).toBeHidden();
  await expect(role).toHaveValue("member");
  await expect(role).toBeFocused();
  await expect(page.getByTestId("handover-waiting")).toHaveCount(0);
  await role.selectOption("owner");
  await offer.getByRole("button", { name: "Offer the team" }).click();
  await expect(page.getByTestId("handover-waiting")).toContainText(`You offered the team to ${member.email}`);
  await expect(page.getByTestId("team-summary")).toContainText("you are the owner");
  await snap(page, info, "handover-waiting");
  await expectAccessible(page, "handover-waiting");

  await memberPage.goto("/team");
  await expect(memberPage.getByTestId("handover-offer")).toContainText("every member's agent turns are paid by your account");
  await snap(memberPage, info, "handover-offer");
  await expectAccessible(memberPage, "handover-offer");
  await memberPage.getByRole("button", { name: "Accept and pay for the team" }).click();
  await expect(memberPage.getByTestId("team-summary")).toContainText("Pool crew: you are the owner");
  await expect(memberPage.getByTestId("handover-offer")).toHaveCount(0);
  // The old owner's page follows (team.updated): an admin now.
  await expect(page.getByTestId("team-summary")).toContainText("Pool crew: you are an admin");
  await other.close();
});

test("a member's open page of the team project says it is gone once the member is removed elsewhere", async ({ page }, info) => {
  const owner = await createUser(info, "owner");
  const project = await createProject(owner, "Crew board");
  const { memberId } = await joinTeamProject(page, info, owner, project.id);

  await page.goto(`/projects/${project.id}`);
  await expect(page.getByTestId("project-name")).toHaveText("Crew board");
  await expect(page.getByTestId("live-status")).toHaveText("Live");

  // Removed through the API: the open page learns it (project.updated "team", access lost) at once.
  expect((await owner.session.delete(`/api/v1/billing/team/members/${memberId}`, { headers: api(owner) })).status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Project not found" })).toBeVisible();
  await expect(sidebar(page).getByRole("link", { name: "Crew board" })).toHaveCount(0);
});

test("a member's team page follows the team project renamed and deleted elsewhere", async ({ page }, info) => {
  const owner = await createUser(info, "owner");
  const project = await createProject(owner, "Crew plans");
  await joinTeamProject(page, info, owner, project.id);

  await page.goto("/team");
  await expect(page.getByTestId("team-project")).toHaveText("Crew plans");
  expect((await owner.session.put(`/api/v1/projects/${project.id}`, { headers: api(owner), data: { name: "Crew plans, v2" } })).status()).toBe(200);
  // The page has no live marker: seeing the first rename means its connection is up (it came
  // through an event, or through the reload on connecting), so the second can only be an event.
  await expect(page.getByTestId("team-project")).toHaveText("Crew plans, v2");
  expect((await owner.session.put(`/api/v1/projects/${project.id}`, { headers: api(owner), data: { name: "Crew plans, v3" } })).status()).toBe(200);
  await expect(page.getByTestId("team-project")).toHaveText("Crew plans, v3");
  expect((await owner.session.delete(`/api/v1/projects/${project.id}`, { headers: api(owner) })).status()).toBe(200);
  await expect(page.getByTestId("team-project")).toHaveText("None yet.");
});

test("a member's open chat of a team project todo says it is not found once the member is removed elsewhere", async ({ page }, info) => {
  const owner = await createUser(info, "owner");
  const project = await createProject(owner, "Crew chat");
  const todo = await createTodo(owner, project.id, "Crew todo");
  const { memberId } = await joinTeamProject(page, info, owner, project.id);

  const chat = new TodoChatPage(page);
  await chat.open(project.id, todo.id);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Crew todo");

  // Removed through the API: the open chat learns it (project.updated "team") and reads the todo again.
  expect((await owner.session.delete(`/api/v1/billing/team/members/${memberId}`, { headers: api(owner) })).status()).toBe(200);
  await expect(page.getByTestId("todo-not-found")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Todo not found" })).toBeVisible();
});

test("the invite page explains a signed-out visitor, another address, and a used link in plain words", async ({ page, browser }, info) => {
  const owner = await createUser(info, "owner");
  const invitee = `invitee-${Date.now()}@e2e.example.com`;
  expect((await owner.session.post("/cookie/v1/billing/team/members", { data: { email: invitee, teamName: "Crew" } })).status()).toBe(200);
  const link = await inviteLink(dataDirOf(info), invitee);

  await page.goto(link);
  await expect(page.getByTestId("invite")).toContainText(`invited ${invitee} to the team Crew`);
  await expect(page.getByRole("link", { name: `sign in with ${invitee}` })).toBeVisible();

  const someoneElse = await browser.newContext({ baseURL: info.project.use.baseURL });
  const other = await createUser(info, "other");
  await someoneElse.addCookies((await other.session.storageState()).cookies);
  const otherPage = await someoneElse.newPage();
  await otherPage.goto(link);
  await expect(otherPage.getByRole("alert").filter({ hasText: `You are signed in as ${other.email}, but this invite is for ${invitee}` })).toBeVisible();
  await expect(otherPage.getByRole("button", { name: /Accept/ })).toHaveCount(0);
  await someoneElse.close();

  const revoke = await owner.session.get("/cookie/v1/billing/team");
  const inviteId = ((await revoke.json()) as { invites: { id: string }[] }).invites[0]!.id;
  expect((await owner.session.delete("/cookie/v1/billing/team/invites", { data: { inviteId } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("alert").filter({ hasText: "This invite was withdrawn by the team" })).toBeVisible();
});

test("a signed-out invitee signs in from the invite page with the invited address, comes back to it through the emailed link, and accepts", async ({ page }, info) => {
  const owner = await createUser(info, "owner");
  const invitee = `invitee-${Date.now()}@e2e.example.com`;
  expect((await owner.session.post("/cookie/v1/billing/team/members", { data: { email: invitee, teamName: "Night shift" } })).status()).toBe(200);
  const link = await inviteLink(dataDirOf(info), invitee);
  const invitePath = new URL(link).pathname;

  await page.goto(link);
  await page.getByRole("link", { name: `sign in with ${invitee}` }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  // The invited address is filled in; the page will come back to the invite.
  await expect(page.getByLabel("Email")).toHaveValue(invitee);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  let signInLink = "";
  await expect
    .poll(async () => {
      const mail = await readOutbox(dataDirOf(info), invitee).catch(() => null);
      signInLink = mail?.subject === "Sign in to Todo Service" ? firstLink(mail.text) : "";
      return signInLink;
    })
    .not.toBe("");
  await page.goto(signInLink);
  await expect(page).toHaveURL((u) => u.pathname === invitePath);
  const invite = page.getByTestId("invite");
  await expect(invite).toContainText(`invited ${invitee} to the team Night shift`);
  await snap(page, info, "invite-after-sign-in");
  await invite.getByRole("button", { name: "Accept and join Night shift" }).click();
  await expect(invite.getByRole("status")).toContainText("You joined Night shift.");
  await snap(page, info, "invite-accepted-after-sign-in");

  // The owner's team now lists the invitee as a member.
  const team = (await (await owner.session.get("/cookie/v1/billing/team")).json()) as { members: { email: string; role: string }[] };
  expect(team.members).toContainEqual(expect.objectContaining({ email: invitee, role: "member" }));
});

test("at phone width the team tables break long addresses, never a short word such as a role or an amount", async ({ page }, info) => {
  await signedInUser(page, info, "owner");
  const member = await createUser(info, "member");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/team");
  await page.getByLabel("Email to invite").fill(member.email);
  await page.getByRole("button", { name: "Send invite" }).click();
  await expect(page.getByTestId("team-invite")).toContainText(member.email);
  await expect(page.getByTestId("team-usage")).toBeVisible();
  // The number of lines a cell's text takes.
  const lines = (cell: Locator) =>
    cell.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
    });
  const members = page.getByTestId("team-members");
  expect(await lines(members.getByRole("columnheader", { name: "Role" }))).toBe(1);
  expect(await lines(members.getByRole("cell", { name: "owner", exact: true }))).toBe(1);
  const usage = page.getByTestId("team-usage");
  for (const name of ["Turns", "Spend"]) expect(await lines(usage.getByRole("columnheader", { name })), name).toBe(1);
  expect(await lines(usage.getByRole("cell", { name: "$0.00" }))).toBe(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await snap(page, info, "team-390");
});
