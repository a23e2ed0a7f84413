import { expect, test } from "@playwright/test";
import { createProject, createTodo, h, okJson, waitForStatus } from "../support/todos";
import { signedInUser, snap } from "../support/ui";
import { TodoChatPage } from "../support/todo-page";

// The billing page against the local Stripe stand-in (test mode).

test("add a test card and credit, see balance and transaction; a declined card shows Stripe's reason; change plan; usage bars move after a turn", async ({ page }, info) => {
  const user = await signedInUser(page, info, "billing");
  await page.goto("/billing");
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  await expect(page.getByText(/^Test mode: payments go to a local Stripe stand-in/)).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expect(page.getByText("No card saved yet.")).toBeVisible();
  // No card to pay with: the button says so instead of failing when pressed.
  await expect(page.getByRole("button", { name: "Add credit" })).toBeDisabled();
  await expect(page.getByTestId("credit-card-note")).toHaveText("Add a card under Cards first: credit is paid with your default card.");

  // A declined card: Stripe's reason is shown, nothing saved.
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Your card was declined." })).toBeVisible();
  await expect(page.getByText("No card saved yet.")).toBeVisible();

  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Save card" }).click();
  const cards = page.getByRole("list", { name: "Saved cards" });
  await expect(cards.getByRole("listitem")).toHaveCount(1);
  await expect(cards).toContainText("4242");
  await expect(cards).toContainText("Default");

  await expect(page.getByTestId("credit-card-note")).toHaveText("Paid with your default card.");
  await page.getByLabel("Add", { exact: true }).selectOption("25");
  await page.getByRole("button", { name: "Add credit" }).click();
  await expect(page.getByText("$25.00 added.")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$25.00");
  await expect(page.getByRole("table").first()).toContainText("Credit added");
  await snap(page, info, "billing-credit");

  // Plan: Free → Pro, what it costs now is on the button.
  await expect(page.getByTestId("current-plan")).toHaveText("Free");
  await page.getByRole("button", { name: /Subscribe · \$20\.00 now/ }).click();
  await expect(page.getByText("Subscribed: $20.00 charged now.")).toBeVisible();
  await expect(page.getByTestId("current-plan")).toHaveText("Pro");

  // An agent turn moves the session bar.
  const session = page.getByRole("progressbar", { name: "Session window" });
  await expect(session).toHaveAttribute("aria-valuenow", "0");
  const project = await createProject(user, "Billing UI");
  const todo = await createTodo(user, project.id, { content: `Summarise: ${"lorem ".repeat(800)}`, startProcessing: true });
  await waitForStatus(user, todo.id, "READY");
  const status = await okJson<{ session: { usedCents: number } }>(await user.session.get("/api/v1/billing/usage", { headers: h(user) }));
  expect(status.session.usedCents).toBeGreaterThan(0);
  await page.reload();
  await expect(session).not.toHaveAttribute("aria-valuenow", "0");
  await snap(page, info, "billing-usage");
});

test("a message the plan's window refuses (402) says why in the chat, keeps the draft and links to billing", async ({ page }, info) => {
  const user = await signedInUser(page, info, "billing-402");
  const project = await createProject(user, "Windows");
  // The local agent costs a cent per 100 words: 6000 words use up the free session window (50 cents).
  const todo = await createTodo(user, project.id, { content: `Please read this. ${"word ".repeat(6000)}`, startProcessing: true });
  await waitForStatus(user, todo.id, "READY");

  const chat = new TodoChatPage(page);
  await chat.open(project.id, todo.id);
  await chat.composer.getByRole("textbox", { name: "Message" }).fill("And now a summary, please");
  await chat.composer.getByRole("button", { name: "Send" }).click();
  await expect(chat.composer.getByRole("alert")).toContainText("The agent can't start: your plan's session usage window is used up until");
  await expect(chat.composer.getByRole("textbox", { name: "Message" })).toHaveValue("And now a summary, please");
  await snap(page, info, "chat-402");
  await chat.composer.getByRole("link", { name: "Open billing" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "New agent turns are paused: the session window is used up" })).toBeVisible();
});

test("a card that asks for 3-D Secure: the bank's page confirms the payment and the credit arrives; failing it charges nothing", async ({ page }, info) => {
  await signedInUser(page, info, "billing-3ds");
  await page.goto("/billing");
  await page.getByLabel("Card number").fill("4000 0025 0000 3155");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByRole("list", { name: "Saved cards" })).toContainText("3155");
  await expect(page.getByRole("list", { name: "Saved cards" })).toContainText("Default");

  await page.getByLabel("Add", { exact: true }).selectOption("10");
  await page.getByRole("button", { name: "Add credit" }).click();
  // The bank's page (the stand-in's test page), then back to billing.
  await expect(page.getByRole("heading", { name: "3D Secure test payment" })).toBeVisible();
  await expect(page.getByText("confirm a payment of 10.00 USD")).toBeVisible();
  await snap(page, info, "3ds-challenge");
  await page.getByRole("button", { name: "Complete authentication" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByRole("status").filter({ hasText: "$10.00 added." })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$10.00");

  await page.getByRole("button", { name: "Add credit" }).click();
  await page.getByRole("button", { name: "Fail authentication" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Your bank did not confirm the payment; nothing was charged." })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$10.00");
});

test("the test-card form keeps each label on the line of its field, at desktop and phone widths", async ({ page }, info) => {
  await signedInUser(page, info, "billing");
  await page.goto("/billing");
  await expect(page.getByText("No card saved yet.")).toBeVisible();
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    for (const [id, name] of [["card-number", "Card number"], ["card-exp", "Expiry"]] as const) {
      const label = (await page.locator(`label[for="${id}"]`).boundingBox())!;
      const field = (await page.getByLabel(name, { exact: true }).boundingBox())!;
      const where = `${name} at ${size.width} px`;
      // The label reads just before its field, on the same line.
      expect(Math.abs(label.y + label.height / 2 - (field.y + field.height / 2)), where).toBeLessThan(field.height / 2);
      expect(label.x + label.width, where).toBeLessThanOrEqual(field.x);
    }
    await snap(page, info, `billing-card-form-${size.width}`);
  }
});
