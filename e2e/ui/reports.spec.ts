import { expect, test } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { signedInUser, snap } from "../support/ui";
import { makeAdmin } from "../support/users";
import { createProject, createTodo, waitForReply } from "../support/todos";

// Report on an agent's reply (todo_reportAiOutput), and the administrators' review of what was
// reported (admin_aiReports, admin_setAiReportStatus) in the console.
test.describe.configure({ timeout: 120_000 });

test("a user reports a reply with a reason and details; an administrator reads it with the reply's text, resolves it and can reopen it", async ({ browser }, info) => {
  const userPage = await (await browser.newContext()).newPage();
  const user = await signedInUser(userPage, info, "reporter");
  const project = await createProject(user, "Reports");
  const todo = await createTodo(user, project.id, { content: "Name three rivers", startProcessing: true });
  const reply = (await waitForReply(user, todo.id)).messages.at(-1)!;

  await userPage.goto(`/projects/${project.id}/todos/${todo.id}`);
  const report = userPage.getByRole("button", { name: /^Report this reply from / });
  await expect(report).toHaveCount(1);
  await report.click();
  const dialog = userPage.getByRole("dialog", { name: "Report this reply" });
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Choose what is wrong with the reply.");
  await dialog.getByRole("radio", { name: "Wrong or misleading" }).check();
  await dialog.getByLabel("Details (optional)").fill("The second river does not exist.");
  const axe = await new AxeBuilder({ page: userPage }).include("dialog").analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await snap(userPage, info, "report-dialog");
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(dialog).toBeHidden();
  await expect(userPage.getByRole("button", { name: "Reported" })).toBeDisabled();

  const adminPage = await (await browser.newContext()).newPage();
  const admin = await signedInUser(adminPage, info, "report-admin");
  makeAdmin(info, admin);
  await adminPage.goto("/admin");
  await adminPage.getByRole("navigation", { name: "Course console" }).getByRole("link", { name: "Reported replies" }).click();
  await expect(adminPage).toHaveTitle("Reported replies · Course console");
  const item = adminPage.getByTestId("report").filter({ hasText: user.email });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("Wrong or misleading");
  await expect(item).toContainText("The second river does not exist.");
  await expect(item.getByLabel("The reported text")).toHaveText(reply.content.slice(0, 1000));
  await snap(adminPage, info, "reports-open");

  await item.getByRole("button", { name: `Resolve the report by ${user.email}` }).click();
  await expect(item).toHaveCount(0);
  await adminPage.getByRole("button", { name: "Resolved" }).click();
  await expect(adminPage.getByRole("button", { name: "Resolved" })).toHaveAttribute("aria-pressed", "true");
  await expect(item).toHaveCount(1);
  await item.getByRole("button", { name: `Reopen the report by ${user.email}` }).click();
  await expect(item).toHaveCount(0);
  await adminPage.getByRole("button", { name: "Open" }).click();
  await expect(item).toHaveCount(1);
});
