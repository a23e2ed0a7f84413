import { expect, test } from "@playwright/test";
import { expectAccessible, signedInUser, snap } from "../support/ui";
import { addMessage, createProject, createTodo, getTodo } from "../support/todos";

// ⌘K / Ctrl+K search in the shell: results across projects, grouped per todo with the matching
// words marked, keyboard navigation, and Enter opens the chat at the message, marked.
test("Ctrl+K finds a message in another project and opens its chat at that message", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const garden = await createProject(u, "Garden");
  const other = await createProject(u, "Kitchen");
  const todo = await createTodo(u, garden.id, "Water the plants");
  // Enough messages that the match is not on the first page the chat loads.
  const target = await addMessage(u, todo.id, { content: "The zucchinis need irrigation <b>daily</b>", startProcessing: false });
  for (let i = 0; i < 60; i++) await addMessage(u, todo.id, { content: `filler message ${i}`, startProcessing: false });
  const second = await addMessage(u, todo.id, { content: "The tomatoes want shade at noon", startProcessing: false });
  await createTodo(u, other.id, "Bake bread");
  expect((await getTodo(u, todo.id, { messageLimit: 50 })).messages.some((m) => m.messageId === target.messageId)).toBe(false);

  await page.goto(`/projects/${other.id}`);
  const box = page.getByRole("combobox", { name: "Search messages, todos and notes" });
  // The shortcut works once the page is hydrated: press until the dialog opens.
  await expect(async () => {
    await page.keyboard.press("Control+k");
    await expect(box).toBeFocused({ timeout: 1000 });
  }).toPass();
  await box.fill("irrigat");
  const results = page.getByTestId("search-result");
  await expect(results.first()).toContainText("Water the plants");
  await expect(results.first()).toContainText("Garden");
  await expect(results.first().locator("mark")).toHaveText(["irrigation"]);
  // The message's own text stays text: no element was made from it.
  await expect(results.first()).toContainText("<b>daily</b>");
  await expect(results.first().locator("b")).toHaveCount(0);

  await box.press("ArrowDown");
  await box.press("ArrowUp");
  await expect(results.first()).toHaveAttribute("aria-selected", "true");
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/projects/${garden.id}/todos/${todo.id}\\?message=${target.messageId}`));
  const hit = page.locator(`[data-message-id="${target.messageId}"]`);
  await expect(hit).toHaveAttribute("data-search-hit", "");
  await expect(hit).toBeInViewport();

  // A second search from the chat moves the mark: one message is marked, the one looked for.
  await page.keyboard.press("Control+k");
  await box.fill("tomatoes shade");
  await expect(results.first().locator("mark")).toHaveText(["tomatoes", "shade"]);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`\\?message=${second.messageId}`));
  await expect(page.locator(`[data-message-id="${second.messageId}"]`)).toHaveAttribute("data-search-hit", "");
  await expect(page.locator("[data-search-hit]")).toHaveCount(1);

  // Empty state, and Escape closes.
  await page.keyboard.press("Control+k");
  await box.fill("nothingmatchesthisword");
  await expect(page.getByText("Nothing matches")).toBeVisible();
  await box.press("Escape");
  await expect(box).toHaveCount(0);
});

test("the search dialog keeps Tab inside it, and Escape gives focus back to what had it before", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Focus");
  await page.goto(`/projects/${p.id}`);
  const box = page.getByRole("combobox", { name: "Search messages, todos and notes" });
  const rename = page.getByRole("button", { name: "Rename", exact: true });
  await rename.focus();
  await expect(async () => {
    await page.keyboard.press("Control+k");
    await expect(box).toBeFocused({ timeout: 1000 });
  }).toPass();
  // aria-modal: Tab and Shift+Tab never reach the page behind the dialog.
  await page.keyboard.press("Tab");
  await expect(box).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(box).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Search" })).toHaveCount(0);
  await expect(rename).toBeFocused();

  // Opened from its button, it gives focus back to that button.
  const opener = page.getByRole("button", { name: /^Search/ });
  await opener.focus();
  await page.keyboard.press("Enter");
  await expect(box).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Search" })).toHaveCount(0);
  await expect(opener).toBeFocused();
});

// Find in this chat: todo_searchMessages scoped to the todo, newest first, older matches on
// demand, and a match opens at its message even when the chat has not loaded it yet.
test("Find in this chat lists the todo's matching messages newest first, pages back, filters by author and opens a match the chat had not loaded", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Allotment");
  const todo = await createTodo(u, p.id, "Plan the beds");
  const other = await createTodo(u, p.id, "Another todo");
  await addMessage(u, other.id, { content: "compost in another todo", startProcessing: false });
  const first = await addMessage(u, todo.id, { content: "Start the compost heap by the shed", startProcessing: false });
  for (let i = 0; i < 60; i++) await addMessage(u, todo.id, { content: i % 6 === 0 ? `turn the compost, week ${i / 6 + 1}` : `filler message ${i}`, startProcessing: false });
  expect((await getTodo(u, todo.id, { messageLimit: 50 })).messages.some((m) => m.messageId === first.messageId)).toBe(false);

  await page.goto(`/projects/${p.id}/todos/${todo.id}`);
  await page.getByText("Find in this chat", { exact: true }).click();
  const box = page.getByRole("searchbox", { name: "Find in this chat" });
  await expect(box).toBeFocused();
  await box.fill("compost");
  const matches = page.getByTestId("find-match");
  // 11 in this todo (none of the other todo's): the newest 10, then the oldest on demand.
  await expect(page.getByRole("status").filter({ hasText: "The newest 10 matches, newest first" })).toBeVisible();
  await expect(matches).toHaveCount(10);
  await expect(matches.first()).toContainText("week 10");
  await expect(matches.first().locator("mark")).toHaveText(["compost"]);
  await page.getByRole("button", { name: "Older matches" }).click();
  await expect(matches).toHaveCount(11);
  await expect(page.getByRole("status").filter({ hasText: "11 matches, newest first" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Older matches" })).toHaveCount(0);
  await expect(matches.last()).toContainText("Start the compost heap");
  await snap(page, info, "find-in-chat");
  await expectAccessible(page, "find in this chat");

  // The oldest match, beyond the pages the chat loaded: it loads back to it, scrolls and marks it.
  await matches.last().click();
  await expect(page).toHaveURL(new RegExp(`\\?message=${first.messageId}`));
  const hit = page.locator(`[data-message-id="${first.messageId}"]`);
  await expect(hit).toHaveAttribute("data-search-hit", "");
  await expect(hit).toBeInViewport();
  await expect(matches.last()).toHaveAttribute("aria-current", "true");
  // Another match moves the mark.
  await matches.first().click();
  await expect(page.locator("[data-search-hit]")).toHaveCount(1);
  await expect(page.locator("[data-search-hit]")).toContainText("week 10");

  // By author: the agent wrote none of them.
  await page.getByRole("combobox", { name: "From" }).selectOption({ label: "The agent" });
  await expect(page.getByText("No message from the agent in this chat matches “compost”.")).toBeVisible();
  await page.getByRole("combobox", { name: "From" }).selectOption({ label: "People" });
  await expect(matches).toHaveCount(10);
  await box.fill("zzzunmatched");
  await expect(page.getByText("No message from people in this chat matches “zzzunmatched”.")).toBeVisible();
  // On a phone the fields share a line and the matches scroll inside the header.
  await page.setViewportSize({ width: 375, height: 740 });
  await box.fill("compost week");
  await expect(matches).toHaveCount(10);
  await snap(page, info, "find-in-chat-phone");
});
