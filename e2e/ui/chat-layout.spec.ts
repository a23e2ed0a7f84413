import { expect, test, type Page } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { addMessage, createProject, createTodo, TURN_TIMEOUT } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";

// The chat fills the window: messages scroll in their own region, the composer stays in view, the
// page itself does not scroll; on a phone the actions sit in a menu.
test.describe.configure({ timeout: 120_000 });
test.use({ timezoneId: "UTC" });

const pageScrolls = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollHeight > window.innerHeight + 1);

for (const size of [
  { width: 1280, height: 800 },
  { width: 375, height: 800 },
]) {
  test(`at ${size.width}×${size.height} the first screen shows the latest messages and the composer, and the page does not scroll`, async ({ page }, info) => {
    await page.setViewportSize(size);
    const u = await signedInUser(page, info);
    const p = await createProject(u, "Layout");
    const t = await createTodo(u, p.id, "A todo with a long conversation that needs room");
    for (let i = 0; i < 25; i++) await addMessage(u, t.id, { content: `Note ${i}: a line of the conversation`, startProcessing: false });
    const chat = new TodoChatPage(page);
    await chat.open(p.id, t.id);
    await expect(chat.message("Note 24: a line of the conversation")).toBeInViewport();
    await expect(chat.composer.getByLabel("Message")).toBeInViewport();
    expect(await pageScrolls(page)).toBe(false);
    if (size.width < 640) {
      // The actions are in a menu.
      await expect(chat.controls).toBeHidden();
      await page.getByLabel("Todo actions").click();
      await expect(chat.control("Complete")).toBeVisible();
      await snap(page, info, `chat-layout-${size.width}-menu`);
      await page.getByLabel("Todo actions").click();
    } else {
      await expect(chat.control("Complete")).toBeVisible();
    }
    await snap(page, info, `chat-layout-${size.width}`);

    // Scrolled up, the reader keeps their place when a message comes in, and may jump to it.
    const region = page.getByTestId("messages");
    await region.evaluate((el) => el.scrollTo({ top: 0 }));
    await addMessage(u, t.id, { content: "A new one arrives", startProcessing: false });
    const jump = page.getByRole("button", { name: "Jump to latest" });
    await expect(jump).toBeVisible();
    await expect(chat.message("A new one arrives")).not.toBeInViewport();
    await jump.click();
    await expect(chat.message("A new one arrives")).toBeInViewport();
    await expect(jump).toHaveCount(0);
  });
}

test("a reader at the bottom stays there when the built-in agent's hint appears below the messages after its first reply", async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Hint");
  const t = await createTodo(u, p.id, "A todo with a long conversation");
  for (let i = 0; i < 12; i++) await addMessage(u, t.id, { content: `Note ${i}: a line of the conversation, long enough to take some room`, startProcessing: false });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await expect(page.getByTestId("offline-hint")).toHaveCount(0);
  await chat.send("- boxes\n- van");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  // The hint takes room from the message list: the reply it explains must not slide out of view.
  await expect(page.getByTestId("offline-hint")).toBeVisible();
  const scroller = page.getByTestId("messages");
  await expect.poll(() => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
  await expect(page.getByRole("button", { name: "↓ Jump to latest" })).toHaveCount(0);
  await snap(page, info, "chat-hint-reply");
});
