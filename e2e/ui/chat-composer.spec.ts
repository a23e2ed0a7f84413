import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { TURN_TIMEOUT, createProject, createTodo, getTodo, waitForStatus } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";

// The composer works like the chat apps people use: Enter sends, Shift+Enter adds a line, the
// draft survives a reload, and Stop halts the agent while it writes.
test.describe.configure({ timeout: 120_000 });
test.use({ timezoneId: "UTC" });


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
  // The OpenAI-compatible stand-in echoes the message two words per 20 ms: a long message makes a
  // reply of several seconds, time enough to press Stop on any machine.
  const t = await createTodo(u, p.id, { content: "Stop", agentSettings: { provider: "openai", model: "gpt-4o-mini" } });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const stop = chat.composer.getByRole("button", { name: /Stop/ });
  await expect(stop).toHaveCount(0);

  await chat.send(Array.from({ length: 800 }, (_, i) => `word${i}`).join(" "));
  await expect(page.getByTestId("writing")).toBeVisible({ timeout: TURN_TIMEOUT });
  await stop.click();
  await expect(chat.status).toHaveText("Paused");
  await expect(page.getByTestId("paused-reply")).toBeVisible();
  await expect(stop).toHaveCount(0);
  await expect(page.getByText("Agent stopped")).toBeVisible();
  await snap(page, info, "composer-stopped");
  await chat.control("Resume").click();
  const done = await waitForStatus(u, t.id, "READY", TURN_TIMEOUT);
  await expect(chat.status).toHaveText("Ready");
  expect(done.messages.at(-1)!.content).toContain("word799");
});
