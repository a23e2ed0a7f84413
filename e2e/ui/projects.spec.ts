import { expect, test, type Locator, type Page } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { createProject, createTodo, expectError, fromTemplate, getTodo, h, listTodos, okJson, setStatus, shareProject, TURN_TIMEOUT, waitForReply, MISSING_ID } from "../support/todos";
import { createUser, type TestUser } from "../support/users";
import { utcInput, utcMinute } from "../support/todo-page";

// The signed-in shell (sidebar) and the project view, in a real Chromium against the real server.
// Every test makes its own users and data.

// Times typed into datetime-local fields are read in the page's zone.
test.use({ timezoneId: "UTC" });

const rows = (page: Page) => page.getByTestId("todo-row");
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });
const sidebar = (page: Page) => page.getByTestId("project-list");
const group = (page: Page, name: string | RegExp) =>
  page.getByTestId("todo-group").filter({ has: page.getByRole("heading", { name: typeof name === "string" ? new RegExp(`^${name}( ·|$)`) : name }) });

async function openProject(page: Page, projectId: string, name: string): Promise<void> {
  await page.goto(`/projects/${projectId}`);
  await expect(page.getByTestId("project-name")).toHaveText(name);
  // The page reloads what it may have missed once subscribed; "Live" says events now arrive.
  await expect(page.getByTestId("live-status")).toHaveText("Live");
}

async function upsertGroup(u: TestUser, projectId: string, slug: string, name: string): Promise<void> {
  await okJson(await u.session.put(`/api/v1/projects/${projectId}/groups/${slug}`, { headers: h(u), data: { name } }));
}

// Next.js keeps an empty role="alert" route announcer on every page: pick ours by its text.
const alert = (page: Page, text: string) => page.getByRole("alert").filter({ hasText: text });
const status = (r: Locator) => r.getByTestId("todo-status");

test("create a project from the sidebar, rename it, make it the default; unknown projects are not found", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Create your first project" })).toBeVisible();
  await expect(page.getByTestId("signed-in-email")).toHaveText(user.email);
  await expect(sidebar(page)).toContainText("No projects yet.");
  await snap(page, info, "home-no-projects");

  // The form validates with the API's schema before sending anything.
  await page.getByLabel("New project name").fill("   ");
  await page.getByRole("button", { name: "Add project" }).click();
  await expect(alert(page, "Name must not be empty")).toHaveText("Name must not be empty");

  await page.getByLabel("New project name").fill("Launch plan");
  await page.getByRole("button", { name: "Add project" }).click();
  await expect(page).toHaveURL(/\/projects\/[^/]+$/);
  const projectId = page.url().split("/").pop()!;
  await expect(page.getByTestId("project-name")).toHaveText("Launch plan");
  await expect(sidebar(page).getByRole("link", { name: "Launch plan" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No todos yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Project settings" })).toHaveAttribute("href", `/projects/${projectId}/settings`);
  await snap(page, info, "project-empty");

  await page.getByRole("button", { name: "Rename", exact: true }).click();
  await page.getByLabel("Project name", { exact: true }).fill("Launch plan v2");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("project-name")).toHaveText("Launch plan v2");
  await expect(sidebar(page).getByRole("link", { name: "Launch plan v2" })).toBeVisible();
  expect((await okJson<{ name: string }>(await user.session.get(`/api/v1/projects/${projectId}`, { headers: h(user) }))).name).toBe("Launch plan v2");

  // A second, newer project: `/` goes to the default one, not simply the first or the newest.
  const other = await createProject(user, "Side project");
  await expect(sidebar(page).getByRole("link", { name: "Side project" })).toBeVisible(); // live, through the user's room
  await page.goto(`/projects/${other.id}`);
  await expect(page.getByTestId("project-name")).toHaveText("Side project");
  await page.getByRole("button", { name: "Make default" }).click();
  await expect(page.getByText("Default project", { exact: true })).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`/projects/${other.id}$`));
  await expect(page.getByTestId("project-name")).toHaveText("Side project");

  await page.goto(`/projects/${MISSING_ID}`);
  await expect(page.getByRole("heading", { name: "Project not found" })).toBeVisible();
  await snap(page, info, "project-not-found");
});

test("create todos with and without the agent; at 375 px the sidebar folds behind a toggle", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Agent work");
  await openProject(page, project.id, "Agent work");

  await page.getByRole("button", { name: "Add todo" }).click();
  await expect(alert(page, "Todo must not be empty")).toHaveText("Todo must not be empty");

  await page.getByLabel("New todo").fill("Draft the release notes");
  await page.getByRole("button", { name: "Add todo" }).click();
  await expect(status(row(page, "Draft the release notes"))).toHaveText("To do");
  await expect(page.getByLabel("New todo")).toHaveValue("");

  await page.getByLabel("New todo").fill("Summarize the customer feedback");
  await page.getByLabel("Agent", { exact: true }).selectOption("Start the agent now");
  await page.getByRole("button", { name: "Add todo" }).click();
  const started = row(page, "Summarize the customer feedback");
  await expect(started).toBeVisible();
  // The local agent answers; the status follows live from RUNNING to READY, without a reload.
  await expect(status(started)).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  const page1 = await listTodos(user, project.id);
  expect(page1.items.map((t) => [t.content, t.status])).toEqual([
    ["Summarize the customer feedback", "READY"],
    ["Draft the release notes", "TODO"],
  ]);
  // Newest activity first.
  await expect(rows(page).first()).toContainText("Summarize the customer feedback");
  await expect(rows(page).first().getByRole("link")).toHaveAttribute("href", `/projects/${project.id}/todos/${page1.items[0]!.id}`);
  await snap(page, info, "project-todos");

  // Or at a time: the todo waits, SCHEDULED, its first message for then; a past time is refused.
  await page.getByLabel("New todo").fill("Send the weekly digest");
  await page.getByLabel("Agent", { exact: true }).selectOption("Start at a time…");
  const at = page.getByLabel("Start at", { exact: true });
  await at.fill(utcInput(Date.now() - 60 * 60_000));
  await page.getByRole("button", { name: "Add todo" }).click();
  await expect(alert(page, "Start at: must be in the future")).toBeVisible();
  await expect(at).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("New todo")).not.toHaveAttribute("aria-invalid");
  const later = Date.now() + 3 * 60 * 60_000;
  await at.fill(utcInput(later));
  // A new time clears the old complaint.
  await expect(alert(page, "Start at")).toHaveCount(0);
  await snap(page, info, "project-new-todo-at");
  await page.getByRole("button", { name: "Add todo" }).click();
  await expect(status(row(page, "Send the weekly digest"))).toHaveText("Scheduled");
  await expect(row(page, "Send the weekly digest").getByTestId("agent-state")).toHaveText("runs in 3 h");
  await expect(page.getByLabel("Agent", { exact: true })).toHaveValue("later");
  await expect(at).toHaveCount(0);
  const scheduled = (await listTodos(user, project.id)).items.find((t) => t.content === "Send the weekly digest")!;
  expect(scheduled).toMatchObject({ status: "SCHEDULED", scheduledAt: utcMinute(later) });

  await page.setViewportSize({ width: 375, height: 812 });
  const toggle = page.getByRole("button", { name: "Menu: projects and account" });
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByTestId("signed-in-email")).toBeHidden();
  await expect(row(page, "Draft the release notes")).toBeVisible();
  await snap(page, info, "project-375");
  await toggle.click();
  await expect(page.getByRole("button", { name: "Hide menu" })).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByTestId("signed-in-email")).toHaveText(user.email);
  await expect(sidebar(page).getByRole("link", { name: "Agent work" })).toHaveAttribute("aria-current", "page");
  await snap(page, info, "project-375-menu");
  // Escape from inside the menu closes it and gives focus back to the toggle.
  await sidebar(page).getByRole("link", { name: "Agent work" }).focus();
  await page.keyboard.press("Escape");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();
  await expect(page.getByTestId("signed-in-email")).toBeHidden();
});

test("groups: todos by group, an empty group, rename a group, add a group", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Grouped");
  await upsertGroup(user, project.id, "backlog", "Backlog");
  await upsertGroup(user, project.id, "later", "Later");
  await createTodo(user, project.id, { content: "Triage the inbox", groupSlug: "backlog" });
  await createTodo(user, project.id, "Loose end");
  await openProject(page, project.id, "Grouped");

  await expect(group(page, "Backlog")).toContainText("Triage the inbox");
  await expect(group(page, "Backlog")).not.toContainText("Loose end");
  await expect(group(page, "Ungrouped")).toContainText("Loose end");
  // Every heading counts its todos, Ungrouped too (the whole list is loaded).
  await expect(page.getByRole("heading", { level: 3 })).toHaveText(["Ungrouped · 1", "Backlog · 1", "Later · 0"]);
  await expect(group(page, "Later")).toContainText("No todos in this group.");
  await snap(page, info, "groups");

  await page.getByRole("button", { name: "Rename group Later" }).click();
  const form = page.getByRole("form", { name: "Rename group Later" });
  await form.getByLabel("Group name").fill("Someday");
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(group(page, "Someday")).toContainText("No todos in this group.");
  await expect(group(page, "Later")).toHaveCount(0);
  const groups = await okJson<{ slug: string; name: string }[]>(await user.session.get(`/api/v1/projects/${project.id}/groups`, { headers: h(user) }));
  expect(groups.map((g) => [g.slug, g.name])).toEqual([
    ["backlog", "Backlog"],
    ["later", "Someday"],
  ]);

  // A new group from the page, then a todo put into it with the form's group select.
  await page.getByText("Add a group").click();
  await page.getByLabel("New group name").fill("Bright ideas");
  await page.getByRole("button", { name: "Add group" }).click();
  await expect(group(page, "Bright ideas")).toContainText("No todos in this group.");
  await page.getByLabel("New todo").fill("Try a dark theme");
  await page.getByLabel("Group", { exact: true }).selectOption({ label: "Bright ideas" });
  await page.getByRole("button", { name: "Add todo" }).click();
  await expect(group(page, "Bright ideas")).toContainText("Try a dark theme");
  await expect(group(page, "Bright ideas")).not.toContainText("No todos in this group.");
  expect((await listTodos(user, project.id, { search: "dark theme" })).items[0]?.groupSlug).toBe("bright-ideas");
});

test("groups move up and down, from the keyboard too; the order is kept by the server and seen live elsewhere", async ({ page, browser }, info) => {
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Ordered");
  // Created in one order, the first two tied at one position: the page breaks the tie by age.
  await upsertGroup(user, project.id, "now", "Now");
  await okJson(await user.session.put(`/api/v1/projects/${project.id}/groups/next`, { headers: h(user), data: { name: "Next", position: 0 } }));
  await upsertGroup(user, project.id, "later", "Later");
  await openProject(page, project.id, "Ordered");
  const headings = page.getByRole("heading", { level: 3 });
  await expect(headings).toHaveText(["Now · 0", "Next · 0", "Later · 0"]);
  // The first cannot go up, the last cannot go down.
  await expect(page.getByRole("button", { name: "Move group Now up" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Move group Later down" })).toBeDisabled();

  // A second tab of the same user follows the order live.
  const other = await browser.newPage({ storageState: await page.context().storageState() });
  await openProject(other, project.id, "Ordered");

  const up = page.getByRole("button", { name: "Move group Later up" });
  await up.click();
  await expect(headings).toHaveText(["Now · 0", "Later · 0", "Next · 0"]);
  // The keyboard stays on the button pressed, which moved with its group: Enter moves it again.
  await expect(up).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(headings).toHaveText(["Later · 0", "Now · 0", "Next · 0"]);
  // First now: Up is disabled, and the keyboard is on Down.
  await expect(up).toBeDisabled();
  await expect(page.getByRole("button", { name: "Move group Later down" })).toBeFocused();
  await snap(page, info, "groups-reordered");
  await expect(other.getByRole("heading", { level: 3 })).toHaveText(["Later · 0", "Now · 0", "Next · 0"]);

  const groups = await okJson<{ slug: string; position: number }[]>(await user.session.get(`/api/v1/projects/${project.id}/groups`, { headers: h(user) }));
  expect(groups.map((g) => [g.slug, g.position])).toEqual([
    ["later", 0],
    ["now", 1],
    ["next", 2],
  ]);
  // A reload reads the same order.
  await page.reload();
  await expect(headings).toHaveText(["Later · 0", "Now · 0", "Next · 0"]);
  await other.close();
});

test("search filters by content and by status, with its own empty state", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Searchable");
  await createTodo(user, project.id, "Write the launch post");
  await createTodo(user, project.id, "Fix the login bug");
  const done = await createTodo(user, project.id, "Book the venue");
  await setStatus(user, done.id, "complete");
  await openProject(page, project.id, "Searchable");
  await expect(rows(page)).toHaveCount(3);

  const search = page.getByRole("searchbox", { name: "Search todos" });
  await search.fill("LAUNCH");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText("Write the launch post");
  await snap(page, info, "search-content");

  await search.fill("done");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText("Book the venue");
  await expect(status(rows(page))).toHaveText("Done");

  await search.fill("no such thing");
  await expect(page.getByText("No todos match “no such thing”.")).toBeVisible();
  await expect(rows(page)).toHaveCount(0);
  await snap(page, info, "search-empty");

  await search.fill("");
  await expect(rows(page)).toHaveCount(3);
});

test("infinite scroll loads older pages until the cursor runs out", async ({ page }, info) => {
  test.setTimeout(90_000);
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Long list");
  const total = 60;
  for (let i = 1; i <= total; i++) await createTodo(user, project.id, `Item ${String(i).padStart(2, "0")}`);
  await openProject(page, project.id, "Long list");

  // The first page holds at most 50 (todo_list's default limit): the newest are there, the oldest not yet.
  await expect(row(page, "Item 60")).toBeVisible();
  const first = await rows(page).count();
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(50);
  await expect(row(page, "Item 01")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Load more" })).toBeVisible();

  // Scrolling the end of the list into view loads the rest, no click needed.
  await page.getByTestId("todo-list-end").scrollIntoViewIfNeeded();
  await expect(row(page, "Item 01")).toBeVisible();
  await expect(rows(page)).toHaveCount(total);
  await expect(page.getByText("All todos loaded.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  // Newest activity first, no item lost or repeated across pages.
  const texts = await rows(page).getByRole("link").allTextContents();
  expect(texts).toEqual(Array.from({ length: total }, (_, i) => `Item ${String(total - i).padStart(2, "0")}`));
  await snap(page, info, "infinite-scroll");
});

test("the Load more button pages with the keyboard", async ({ page }, info) => {
  test.setTimeout(90_000);
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Keyboard paging");
  for (let i = 1; i <= 55; i++) await createTodo(user, project.id, `Entry ${String(i).padStart(2, "0")}`);
  await openProject(page, project.id, "Keyboard paging");
  await expect(row(page, "Entry 55")).toBeVisible();
  await expect(row(page, "Entry 01")).toHaveCount(0);
  await page.getByRole("button", { name: "Load more" }).focus();
  await page.keyboard.press("Enter");
  await expect(row(page, "Entry 01")).toBeVisible();
  await expect(rows(page)).toHaveCount(55);
  // The button is gone with the last page: the line that says so has the focus, not the page's start.
  await expect(page.getByText("All todos loaded.")).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  // Shift+Tab goes back into the last row loaded.
  expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="todo-row"]')?.textContent ?? "")).toContain("Entry 01");
});

test("accept and dismiss proposed todos", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Proposals");
  await upsertGroup(user, project.id, "quality", "Quality");
  const accepted = await fromTemplate(user, project.id, { content: "Proposed: write tests", propose: true, overrides: { groupSlug: "quality" } });
  const dismissed = await fromTemplate(user, project.id, { content: "Proposed: rewrite in Rust", propose: true });
  await createTodo(user, project.id, { content: "Regular todo", groupSlug: "quality" });
  await openProject(page, project.id, "Proposals");
  // The group's heading counts the todos under it: its proposed one is in the section above.
  const quality = page.getByRole("heading", { level: 3, name: /^Quality/ });
  await expect(quality).toHaveText("Quality · 1");

  const section = page.getByTestId("proposed-todos");
  await expect(section.getByTestId("todo-row")).toHaveCount(2);
  await expect(section).toContainText("Proposed: write tests");
  await expect(section).toContainText("Proposed: rewrite in Rust");
  await expect(page.getByRole("region", { name: "Todos", exact: true }).getByTestId("todo-row")).toHaveCount(1);
  await snap(page, info, "proposed");

  await page.getByRole("button", { name: "Accept: Proposed: write tests" }).click();
  await expect(section).not.toContainText("Proposed: write tests");
  const todos = page.getByRole("region", { name: "Todos", exact: true });
  await expect(todos.getByTestId("todo-row").filter({ hasText: "Proposed: write tests" })).toBeVisible();
  await expect(status(todos.getByTestId("todo-row").filter({ hasText: "Proposed: write tests" }))).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  await waitForReply(user, accepted.id);
  await expect(quality).toHaveText("Quality · 2");

  await page.getByRole("button", { name: "Dismiss: Proposed: rewrite in Rust" }).click();
  await expect(section).toHaveCount(0);
  await expect(status(todos.getByTestId("todo-row").filter({ hasText: "Proposed: rewrite in Rust" }))).toHaveText("Cancelled");
  expect((await getTodo(user, dismissed.id)).status).toBe("CANCELLED");
});

test("share with a second user, who sees the project appear in their sidebar", async ({ page, browser }, info) => {
  const owner = await signedInUser(page, info, "owner");
  const project = await createProject(owner, "Team roadmap");
  await createTodo(owner, project.id, "Plan Q3");

  const context2 = await browser.newContext({ baseURL: info.project.use.baseURL });
  const page2 = await context2.newPage();
  const sharee = await signedInUser(page2, info, "sharee");
  await page2.goto("/");
  await expect(page2.getByRole("heading", { name: "Create your first project" })).toBeVisible();
  await expect(sidebar(page2)).toContainText("No projects yet.");

  await openProject(page, project.id, "Team roadmap");
  await page.getByRole("button", { name: "Share…" }).click();
  // The API's own error, for an email without an account.
  await page.getByLabel("Share with (email)").fill("nobody-here@e2e.example.com");
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await expect(alert(page, "No user with that email")).toHaveText("No user with that email");
  await snap(page, info, "share-unknown-email");

  await page.getByLabel("Share with (email)").fill(sharee.email);
  await page.getByLabel("Role").selectOption("viewer");
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Shared with" })).toHaveText(`Shared with ${sharee.email} as viewer.`);

  // Live, without a reload: the sharee's own room receives project.updated ("shared").
  const link = sidebar(page2).getByRole("link", { name: /Team roadmap/ });
  await expect(link).toBeVisible();
  await expect(link).toContainText("viewer");
  await expect(sidebar(page2).getByRole("heading", { name: "Shared with you" })).toBeVisible();
  await snap(page2, info, "sharee-sidebar");
  await link.click();
  await expect(page2.getByTestId("project-name")).toHaveText("Team roadmap");
  await expect(row(page2, "Plan Q3")).toBeVisible();
  await expect(page2.getByText("You can read this project")).toBeVisible();
  await expect(page2.getByLabel("New todo")).toHaveCount(0);
  await expect(page2.getByRole("button", { name: "Delete project…" })).toHaveCount(0);
  await snap(page2, info, "sharee-project");

  // The owner renames it; the sharee's open page and sidebar follow.
  await page.getByRole("button", { name: "Rename", exact: true }).click();
  await page.getByLabel("Project name", { exact: true }).fill("Team roadmap 2025");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page2.getByTestId("project-name")).toHaveText("Team roadmap 2025");
  await expect(sidebar(page2).getByRole("link", { name: /Team roadmap 2025/ })).toBeVisible();

  // Away from the project (its room not subscribed), the sharee's sidebar still follows: the
  // server sends project changes to every member's own connections.
  await page2.goto("/settings");
  await expect(sidebar(page2).getByRole("link", { name: /Team roadmap 2025/ })).toBeVisible();
  expect((await owner.session.put(`/api/v1/projects/${project.id}`, { headers: { authorization: `Bearer ${owner.apiKey}` }, data: { name: "Roadmap, final" } })).status()).toBe(200);
  await expect(sidebar(page2).getByRole("link", { name: /Roadmap, final/ })).toBeVisible();
  expect((await owner.session.delete(`/api/v1/projects/${project.id}`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).status()).toBe(200);
  await expect(sidebar(page2)).toContainText("No projects yet.");
  await context2.close();
});

test("a sharee's open project page follows a role the owner changes elsewhere", async ({ page }, info) => {
  const owner = await createUser(info, "owner");
  const project = await createProject(owner, "Shifting roles");
  const sharee = await signedInUser(page, info, "sharee");
  await shareProject(owner, project.id, sharee.email, "viewer");
  await openProject(page, project.id, "Shifting roles");
  await expect(page.getByText("You can read this project")).toBeVisible();
  await expect(page.getByLabel("New todo")).toHaveCount(0);
  // Nothing to select for changes a viewer cannot make.
  await expect(page.getByRole("button", { name: "Select", exact: true })).toHaveCount(0);
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

  // The owner, through the API, makes the sharee an editor: the page offers writing at once.
  await shareProject(owner, project.id, sharee.email, "editor");
  await expect(page.getByLabel("New todo")).toBeVisible();
  await expect(page.getByRole("button", { name: "Select", exact: true })).toBeVisible();
  await expect(page.getByText("You can read this project")).toHaveCount(0);
  // And back to viewer.
  await shareProject(owner, project.id, sharee.email, "viewer");
  await expect(page.getByText("You can read this project")).toBeVisible();
  await expect(page.getByLabel("New todo")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
});

test("delete a project after confirming in a dialog", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  const keep = await createProject(user, "Keeper");
  const doomed = await createProject(user, "Doomed");
  await createTodo(user, doomed.id, "Goes with it");
  await openProject(page, doomed.id, "Doomed");

  await page.getByRole("button", { name: "Delete project…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete project “Doomed”?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await snap(page, info, "delete-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("project-name")).toHaveText("Doomed");
  await okJson(await user.session.get(`/api/v1/projects/${doomed.id}`, { headers: h(user) }));

  await page.getByRole("button", { name: "Delete project…" }).click();
  await dialog.getByRole("button", { name: "Delete permanently" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${keep.id}$`));
  await expect(page.getByTestId("project-name")).toHaveText("Keeper");
  await expect(sidebar(page).getByRole("link", { name: "Doomed" })).toHaveCount(0);
  await expectError(await user.session.get(`/api/v1/projects/${doomed.id}`, { headers: h(user) }), 404, "NOT_FOUND");
});

test("todos created, changed and deleted through the API show live in the open page", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Live board");
  await openProject(page, project.id, "Live board");
  await expect(page.getByText("No todos yet.")).toBeVisible();
  // A marker on the window proves no reload happens.
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

  const todo = await createTodo(user, project.id, "Created by a script");
  await expect(row(page, "Created by a script")).toBeVisible();
  await expect(status(row(page, "Created by a script"))).toHaveText("To do");

  const newer = await createTodo(user, project.id, "Created second");
  await expect(rows(page).first()).toContainText("Created second");
  await setStatus(user, todo.id, "complete");
  await expect(status(row(page, "Created by a script"))).toHaveText("Done");
  // Completing it is activity: it moves to the top.
  await expect(rows(page).first()).toContainText("Created by a script");
  await snap(page, info, "live-updates");

  await okJson(await user.session.delete(`/api/v1/todos/${newer.id}`, { headers: h(user), data: { todoId: newer.id } }));
  await expect(row(page, "Created second")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
});

test("at phone widths a todo row keeps its actions menu on the row's first line, not on a line of its own", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Phone rows");
  await createTodo(user, project.id, "Call the movers about Saturday's van and the keys");
  for (const width of [375, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await openProject(page, project.id, "Phone rows");
    const r = row(page, "Call the movers");
    const link = (await r.getByRole("link").boundingBox())!;
    const menu = (await r.locator("summary").boundingBox())!;
    // Beside the text: the menu starts above the bottom of the todo's text line and to its right.
    expect(menu.y, `menu at ${width} px`).toBeLessThan(link.y + link.height);
    expect(menu.x, `menu at ${width} px`).toBeGreaterThanOrEqual(link.x + link.width);
    await snap(page, info, `project-row-${width}`);
  }
});

test("Escape in a rename box cancels it and gives focus back to the Rename button", async ({ page }, info) => {
  const user = await signedInUser(page, info);
  const project = await createProject(user, "Focus back");
  await openProject(page, project.id, "Focus back");
  const rename = page.getByRole("button", { name: "Rename", exact: true });
  await rename.focus();
  await page.keyboard.press("Enter");
  const box = page.getByLabel("Project name", { exact: true });
  await expect(box).toBeFocused();
  await page.keyboard.type(" v2");
  await page.keyboard.press("Escape");
  await expect(box).toHaveCount(0);
  await expect(rename).toBeFocused();
  await expect(page.getByTestId("project-name")).toHaveText("Focus back");
});

test("keyboard only: the first project, made with Enter on the home page, opens with the keyboard in New todo, and Ctrl+Enter adds the todo", async ({ page }, info) => {
  await signedInUser(page, info);
  await page.goto("/");
  await page.getByLabel("First project name").focus();
  await page.keyboard.type("Typed project");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/projects\/[^/]+$/);
  await expect(page.getByTestId("project-name")).toHaveText("Typed project");
  // It was on <body>: the home page and the project page share no layout, so the form went away.
  const field = page.getByLabel("New todo", { exact: true });
  await expect(field).toBeFocused();
  await page.keyboard.type("Buy milk");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("todo-row").filter({ hasText: "Buy milk" })).toBeVisible();
  await expect(field).toBeFocused();
  await expect(field).toHaveValue("");

  // A reload of the page does not take the focus (the hand-over is used up).
  await page.reload();
  await expect(page.getByTestId("project-name")).toHaveText("Typed project");
  await expect(field).not.toBeFocused();
});
