import { expect, test } from "@playwright/test";
import { signedInUser } from "../support/ui";
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
