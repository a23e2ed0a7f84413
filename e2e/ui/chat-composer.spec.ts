import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { TURN_TIMEOUT, createProject, createTodo, getTodo, waitForStatus } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";

// The composer works like the chat apps people use: Enter sends, Shift+Enter adds a line, the
// draft survives a reload, and Stop halts the agent while it writes.
test.describe.configure({ timeout: 120_000 });
test.use({ timezoneId: "UTC" });

const LONG = "Tell me how to plan a vegetable garden for a small balcony that gets only morning sun, with pots, soil, watering and the first seeds to sow";

test("Enter sends, Shift+Enter adds a line, and the draft survives a reload", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Composer");
  const t = await createTodo(u, p.id, "Composer");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const box = chat.composer.getByLabel("Message");

  await box.click();
  await page.keyboard.type("first line");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("second line");
  await expect(box).toHaveValue("first line\nsecond line");
  // Not sent yet: reload, and the draft is still there.
  await page.reload();
  await expect(chat.live).toHaveAttribute("data-live", "live");
  await expect(box).toHaveValue("first line\nsecond line");
  await snap(page, info, "composer-draft");

  await box.press("Enter");
  await expect(box).toHaveValue("");
  await expect.poll(async () => (await getTodo(u, t.id)).messages.some((m) => m.role === "user" && m.content === "first line\nsecond line")).toBe(true);
  // The line break shows in the message, and the sent draft is gone after a reload.
  const sent = chat.messages.filter({ hasText: "second line" }).getByTestId("message-content");
  expect(await sent.evaluate((el) => (el as HTMLElement).innerText.trim())).toBe("first line\nsecond line");
  await page.reload();
  await expect(chat.live).toHaveAttribute("data-live", "live");
  await expect(box).toHaveValue("");
});

test("Stop pauses the agent while it writes; Resume finishes the reply", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Stop");
  const t = await createTodo(u, p.id, "Stop");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const stop = chat.composer.getByRole("button", { name: /Stop/ });
  await expect(stop).toHaveCount(0);

  // The agent may finish before the click lands (then Stop is gone and the todo READY): try again.
  let stopped = false;
  for (let attempt = 0; attempt < 4 && !stopped; attempt++) {
    await chat.send(`${LONG} (${attempt})`);
    // A short turn on a loaded machine may be over before the page shows it writing: then again.
    await stop.click({ timeout: TURN_TIMEOUT }).catch(() => undefined);
    await expect(chat.status).toHaveText(/Paused|Ready/, { timeout: TURN_TIMEOUT });
    stopped = (await chat.status.textContent()) === "Paused";
  }
  expect(stopped, "Stop reached a running turn").toBe(true);
  await expect(page.getByTestId("paused-reply")).toBeVisible();
  await expect(stop).toHaveCount(0);
  await expect(page.getByText("Agent stopped")).toBeVisible();
  await snap(page, info, "composer-stopped");
  await chat.control("Resume").click();
  await waitForStatus(u, t.id, "READY", TURN_TIMEOUT);
  await expect(chat.status).toHaveText("Ready");
});
