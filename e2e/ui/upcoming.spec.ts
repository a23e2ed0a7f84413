import { expect, test, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { signedInUser, snap } from "../support/ui";
import { addMessage, createProject, createTodo, fromTemplate, getTodo } from "../support/todos";

// /upcoming: what waits on the user across projects (task_getPending): scheduled messages soonest
// first, sent now from here, and proposed todos accepted or dismissed; live, and reached from the
// sidebar.
test.describe.configure({ timeout: 90_000 });

const tasks = (page: Page) => page.getByTestId("pending-task");
const HOUR = 3_600_000;

test("empty, then live: scheduled messages soonest first with their project, Send now, and proposals accepted or dismissed", async ({ page }, info) => {
  const u = await signedInUser(page, info, "upcoming");
  const launch = await createProject(u, "Launch");
  await page.goto(`/projects/${launch.id}`);
  await page.getByRole("navigation", { name: "Tasks" }).getByRole("link", { name: "Upcoming" }).click();
  await expect(page).toHaveURL(/\/upcoming$/);
  await expect(page).toHaveTitle("Upcoming · Todo Service");
  await expect(page.getByRole("link", { name: "Upcoming" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("scheduled-empty")).toBeVisible();
  await expect(page.getByTestId("proposed-empty")).toBeVisible();
  await snap(page, info, "upcoming-empty");

  // Created elsewhere while the page is open: it follows the project rooms, a project made now included.
  const later = await createTodo(u, launch.id, { content: "Write the launch post", scheduledAt: Date.now() + 2 * HOUR });
  await expect(tasks(page)).toHaveCount(1);
  const home = await createProject(u, "Home");
  await expect(page.getByRole("navigation", { name: "Projects" }).getByRole("link", { name: "Home" })).toBeVisible();
  const sooner = await createTodo(u, home.id, { content: "Call the plumber about the leak", scheduledAt: Date.now() + 30 * 60_000 });
  await fromTemplate(u, launch.id, { content: "Maybe: a newsletter", propose: true });
  const dismissMe = await fromTemplate(u, home.id, { content: "Maybe: repaint the hall", propose: true });

  const scheduled = page.getByTestId("scheduled-section").getByTestId("pending-task");
  await expect(scheduled).toHaveCount(2);
  // A todo's scheduled first message is its content: not shown twice. A follow-up shows its text.
  await expect(scheduled.getByTestId("pending-message")).toHaveCount(0);
  const chat = await createTodo(u, home.id, "Quarterly taxes");
  await addMessage(u, chat.id, { content: "Did the accountant reply?", scheduledAt: Date.now() + 26 * HOUR });
  await expect(scheduled).toHaveCount(3);
  await expect(scheduled.nth(2)).toContainText("Quarterly taxes");
  await expect(scheduled.nth(2).getByTestId("pending-message")).toHaveText("Did the accountant reply?");
  await expect(scheduled.nth(0)).toContainText("Call the plumber about the leak");
  await expect(scheduled.nth(0)).toContainText("Home");
  await expect(scheduled.nth(0).locator("time")).toHaveText(/^in (29|30) min$/);
  await expect(scheduled.nth(1)).toContainText("Write the launch post");
  await expect(scheduled.nth(1)).toContainText("Launch");
  await expect(scheduled.nth(1).locator("time")).toHaveText("in 2 h");
  const proposed = page.getByTestId("proposed-section").getByTestId("pending-task");
  await expect(proposed).toHaveCount(2);
  await expect(page.getByRole("heading", { name: "Scheduled messages (3)" })).toBeVisible();

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await snap(page, info, "upcoming-desktop");
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "upcoming-375");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Send now: the message goes to the agent at once and leaves the list.
  await scheduled.nth(1).getByRole("button", { name: "Send now: Write the launch post" }).click();
  await expect(scheduled).toHaveCount(2);
  await expect(scheduled.nth(0)).toContainText("Call the plumber");
  await expect.poll(async () => (await getTodo(u, later.id)).messages.find((m) => m.role === "user")?.state).not.toBe("SCHEDULED");

  // Proposals: accepted (the todo becomes an ordinary one) or dismissed.
  await proposed.filter({ hasText: "a newsletter" }).getByRole("button", { name: "Accept: Maybe: a newsletter" }).click();
  await proposed.filter({ hasText: "repaint the hall" }).getByRole("button", { name: "Dismiss: Maybe: repaint the hall" }).click();
  await expect(page.getByTestId("proposed-empty")).toBeVisible();
  expect((await getTodo(u, dismissMe.id)).status).toBe("CANCELLED");

  // A link opens the todo's chat at the scheduled message.
  await scheduled.nth(0).getByRole("link", { name: "Call the plumber about the leak", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${home.id}/todos/${sooner.id}\\?message=`));
});
