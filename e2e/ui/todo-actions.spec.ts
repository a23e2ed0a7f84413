import { expect, test, type Page } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { TURN_TIMEOUT, createProject, createTodo, getTodo, h, listTodos, okJson, setStatus, waitForReply, waitForStatus } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";
import type { TestUser } from "../support/users";

// Todos managed from the project's list: complete in one click, rename, move (menu and drag and
// drop), start a todo created without the agent, cancel with Undo, delete after confirming, and
// the keyboard; run a todo again as a new one.
test.describe.configure({ timeout: 120_000 });

const rows = (page: Page) => page.getByTestId("todo-row");
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });
const menu = async (page: Page, text: string) => {
  await row(page, text).getByLabel(`Actions for ${text}`).first().click();
  return row(page, text).getByRole("group", { name: `Actions for ${text}` });
};

async function upsertGroup(u: TestUser, projectId: string, slug: string, name: string) {
  await okJson(await u.session.put(`/api/v1/projects/${projectId}/groups/${slug}`, { headers: h(u), data: { name } }));
}

async function openProject(page: Page, id: string) {
  await page.goto(`/projects/${id}`);
  await expect(rows(page).first()).toBeVisible();
}

test("complete in one click, rename, and move between groups by menu and by drag and drop", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Chores");
  await upsertGroup(u, p.id, "home", "Home");
  await upsertGroup(u, p.id, "garden", "Garden");
  const a = await createTodo(u, p.id, "Water the plants");
  const b = await createTodo(u, p.id, "Fix the fence");
  await openProject(page, p.id);
  await expect(page).toHaveTitle("Chores · Todo Service");

  await row(page, "Water the plants").getByRole("checkbox", { name: "Mark done: Water the plants" }).click();
  await expect(row(page, "Water the plants").getByTestId("todo-status")).toHaveText("Done");
  await expect(row(page, "Water the plants").getByRole("checkbox")).toHaveAttribute("aria-checked", "true");
  // Status as an icon and a word.
  expect(await row(page, "Water the plants").getByTestId("todo-status").evaluate((el) => getComputedStyle(el, "::before").content)).toContain("✓");
  expect((await getTodo(u, a.id)).status).toBe("DONE");

  const actions = await menu(page, "Fix the fence");
  await actions.getByRole("button", { name: "Rename" }).click();
  const form = page.getByRole("form", { name: "Rename todo Fix the fence" });
  await form.getByLabel("Todo text").fill("Fix the garden fence");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(row(page, "Fix the garden fence").getByRole("link")).toHaveText("Fix the garden fence");
  expect((await getTodo(u, b.id)).content).toBe("Fix the garden fence");

  const again = await menu(page, "Fix the garden fence");
  await again.getByLabel("Move to").selectOption("home");
  await expect.poll(async () => (await getTodo(u, b.id)).groupSlug).toBe("home");
  await expect(page.locator('[data-group-slug="home"]').getByTestId("todo-row")).toContainText("Fix the garden fence");
  await snap(page, info, "todo-actions-moved");

  // Drag it onto the Garden group (the HTML drag-and-drop events, with one DataTransfer).
  const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
  const garden = page.locator('[data-group-slug="garden"]');
  await row(page, "Fix the garden fence").dispatchEvent("dragstart", { dataTransfer });
  await garden.dispatchEvent("dragenter", { dataTransfer });
  await garden.dispatchEvent("dragover", { dataTransfer });
  await expect(garden).toHaveClass(/drop-target/);
  await garden.dispatchEvent("drop", { dataTransfer });
  await expect.poll(async () => (await getTodo(u, b.id)).groupSlug).toBe("garden");
  await expect(page.locator('[data-group-slug="garden"]').getByTestId("todo-row")).toContainText("Fix the garden fence");
});

test("the chat shows the todo's group and moves it: a group added since is offered, No group takes it out", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Chores");
  await upsertGroup(u, p.id, "home", "Home");
  await upsertGroup(u, p.id, "garden", "Garden");
  const t = await createTodo(u, p.id, { content: "Water the plants", groupSlug: "home" });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const picker = page.getByRole("combobox", { name: "Group" });
  await expect(picker).toHaveValue("home");
  await expect(picker.locator("option")).toHaveText(["No group", "Home", "Garden"]);

  await picker.selectOption("garden");
  await expect(page.getByText("Moved to Garden")).toBeVisible();
  await expect.poll(async () => (await getTodo(u, t.id)).groupSlug).toBe("garden");
  await expect(picker).toHaveValue("garden");
  await snap(page, info, "todo-chat-group");

  // A group added elsewhere is there once the picker is focused again; a move elsewhere shows live.
  await upsertGroup(u, p.id, "shed", "Shed");
  await picker.focus();
  await expect(picker.locator("option")).toHaveText(["No group", "Home", "Garden", "Shed"]);
  await okJson(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { groupSlug: "shed" } }));
  await expect(picker).toHaveValue("shed");

  await picker.selectOption("");
  await expect(page.getByText("Moved out of its group")).toBeVisible();
  await expect.poll(async () => (await getTodo(u, t.id)).groupSlug).toBeNull();
});

test("start a todo created without the agent; delete asks first", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Starts");
  const t = await createTodo(u, p.id, "Outline the talk");
  const gone = await createTodo(u, p.id, "Throw this away");
  await openProject(page, p.id);
  const start = await menu(page, "Outline the talk");
  await start.getByRole("button", { name: "Start the agent" }).click();
  await waitForStatus(u, t.id, "READY", TURN_TIMEOUT);
  await expect(row(page, "Outline the talk").getByTestId("todo-status")).toHaveText("Ready");

  const del = await menu(page, "Throw this away");
  await del.getByRole("button", { name: "Delete…" }).click();
  await expect(del.getByText("Delete this todo and all its messages?")).toBeVisible();
  await snap(page, info, "todo-actions-delete-confirm");
  await del.getByRole("button", { name: "Delete for good" }).click();
  await expect(row(page, "Throw this away")).toHaveCount(0);
  expect((await u.session.get(`/api/v1/todos/${gone.id}`, { headers: h(u) })).status()).toBe(404);
});

test("run again: a new todo with the same text, group and agent settings, started; the first keeps its conversation", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Reports");
  await upsertGroup(u, p.id, "weekly", "Weekly");
  const first = await createTodo(u, p.id, { content: "Write the weekly report", groupSlug: "weekly", agentSettings: { systemPrompt: "Answer in one line." }, assignedAgent: "writer", startProcessing: true });
  const before = await waitForReply(u, first.id);
  await openProject(page, p.id);
  const actions = await menu(page, "Write the weekly report");
  await snap(page, info, "todo-actions-run-again-menu");
  await actions.getByRole("button", { name: "Run again" }).click();
  await expect(page.getByText("Started again as a new todo")).toBeVisible();
  await expect(row(page, "Write the weekly report")).toHaveCount(2);

  const all = (await listTodos(u, p.id)).items.filter((t) => t.content === "Write the weekly report");
  expect(all).toHaveLength(2);
  const copy = all.find((t) => t.id !== first.id)!;
  expect(copy).toMatchObject({ groupSlug: "weekly", agentSettings: { systemPrompt: "Answer in one line." }, assignedAgent: "writer" });
  // The toast's Open goes to the new todo's chat.
  await page.getByRole("button", { name: "Open" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${p.id}/todos/${copy.id}$`));

  const reply = await waitForReply(u, copy.id);
  expect(reply.messages.map((m) => [m.role, m.role === "user" ? m.content : ""])).toEqual([
    ["user", "Write the weekly report"],
    ["assistant", ""],
  ]);
  expect((await getTodo(u, first.id)).messages.map((m) => m.messageId)).toEqual(before.messages.map((m) => m.messageId));
});

test("run again from a finished todo's chat: the chat moves to the new todo, which the agent answers", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Reports");
  const first = await createTodo(u, p.id, { content: "Sum up the sales", startProcessing: true });
  await waitForReply(u, first.id);
  await setStatus(u, first.id, "complete");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, first.id);
  const again = chat.control("↻ Run again");
  await again.click();
  await expect(page).not.toHaveURL(new RegExp(`/todos/${first.id}$`));
  const copyId = page.url().split("/").at(-1)!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sum up the sales");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  expect((await waitForReply(u, copyId)).projectId).toBe(p.id);
  expect((await getTodo(u, first.id)).status).toBe("DONE");
  // A todo still in progress offers no Run again in its chat (its row menu does).
  await chat.open(p.id, copyId);
  await expect(page.getByRole("button", { name: "Run again" })).toHaveCount(0);
});

test("the todo's text is edited in its chat header and in the list: lines kept, Enter saves, Escape discards, empty refused", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Texts");
  const t = await createTodo(u, p.id, "Buy paint");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const heading = page.getByRole("heading", { level: 1 });
  const pencil = page.getByRole("button", { name: "Edit the todo's text" });
  const box = page.getByRole("textbox", { name: "Todo text" });

  // Escape discards and gives focus back to the pencil.
  await pencil.click();
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("Buy paint");
  await box.fill("Something else");
  await box.press("Escape");
  await expect(heading).toHaveText("Buy paint");
  await expect(pencil).toBeFocused();

  // Empty is refused at the field.
  await page.keyboard.press("Enter");
  await box.fill("   ");
  await box.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "needs" })).toHaveText("The todo needs some text.");
  await expect(box).toHaveAttribute("aria-invalid", "true");

  // Shift+Enter adds a line; Enter saves.
  await box.fill("Buy paint:");
  await box.press("Shift+Enter");
  await box.pressSequentially("- white, 2 l");
  await snap(page, info, "todo-title-edit");
  await box.press("Enter");
  await expect(box).toHaveCount(0);
  await expect(heading).toHaveText("Buy paint:\n- white, 2 l");
  expect((await getTodo(u, t.id)).content).toBe("Buy paint:\n- white, 2 l");
  // Not started yet: its waiting first message follows, live, so the agent starts on the new text.
  await expect(page.getByTestId("message-content").first()).toContainText("white, 2 l");
  expect((await getTodo(u, t.id)).messages.map((m) => [m.content, m.state])).toEqual([["Buy paint:\n- white, 2 l", "PENDING"]]);
  await page.getByRole("link", { name: /Back to project/ }).click();
  await expect(row(page, "Buy paint:")).toBeVisible();

  // The list's Rename keeps the lines too (a text box of one line would join them).
  const actions = await menu(page, "Buy paint:");
  await actions.getByRole("button", { name: "Rename" }).click();
  const text = row(page, "Buy paint:").getByLabel("Todo text");
  await expect(text).toHaveValue("Buy paint:\n- white, 2 l");
  // The caret starts at the end.
  await text.press("Shift+Enter");
  await text.pressSequentially("- blue, 1 l");
  await text.press("Enter");
  await expect.poll(async () => (await getTodo(u, t.id)).content).toBe("Buy paint:\n- white, 2 l\n- blue, 1 l");
  await expect(text).toHaveCount(0);
});

test("cancel waits for Undo: undone it changes nothing, else the todo is cancelled", async ({ page }, info) => {
  await page.clock.install();
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Cancels");
  const t = await createTodo(u, p.id, "Maybe later");
  await openProject(page, p.id);

  let actions = await menu(page, "Maybe later");
  await actions.getByRole("button", { name: "Cancel todo…" }).click();
  await page.getByRole("button", { name: "Undo" }).click();
  await page.clock.fastForward(10_000);
  await expect(row(page, "Maybe later").getByTestId("todo-status")).toHaveText("To do");
  expect((await getTodo(u, t.id)).status).toBe("TODO");

  actions = await menu(page, "Maybe later");
  await actions.getByRole("button", { name: "Cancel todo…" }).click();
  await expect(page.getByText("Cancelling “Maybe later”")).toBeVisible();
  await snap(page, info, "todo-actions-cancel-undo");
  // A toast under the pointer waits (sonner pauses on hover): the pointer leaves it first.
  await page.mouse.move(0, 0);
  await page.clock.fastForward(10_000);
  await expect.poll(async () => (await getTodo(u, t.id)).status).toBe("CANCELLED");
  await expect(row(page, "Maybe later").getByTestId("todo-status")).toHaveText("Cancelled");
});

test("keyboard: j/k move, Enter opens, c writes a new todo, ? lists the shortcuts", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Keys");
  await createTodo(u, p.id, "Older todo");
  const newer = await createTodo(u, p.id, "Newer todo");
  await openProject(page, p.id);
  await page.locator("body").click({ position: { x: 5, y: 5 } });

  await page.keyboard.press("j");
  await expect(row(page, "Newer todo").getByRole("link")).toBeFocused();
  await page.keyboard.press("j");
  await expect(row(page, "Older todo").getByRole("link")).toBeFocused();
  await page.keyboard.press("k");
  await expect(row(page, "Newer todo").getByRole("link")).toBeFocused();

  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await snap(page, info, "todo-actions-shortcuts");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.keyboard.press("c");
  await expect(page.getByLabel("New todo")).toBeFocused();
  await page.keyboard.press("Escape");
  await page.locator("body").click({ position: { x: 5, y: 5 } });

  await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/todos/${newer.id}$`));
  await expect(page).toHaveTitle("Newer todo · Keys · Todo Service");
});

test("select several todos: Shift ranges, x, Select all; mark done, move, start and delete them at once", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Batch");
  await upsertGroup(u, p.id, "garden", "Garden");
  const todos = [];
  for (const n of [1, 2, 3, 4, 5]) todos.push(await createTodo(u, p.id, `Task ${n}`));
  await setStatus(u, todos[3]!.id, "complete");
  await openProject(page, p.id);
  const bar = page.getByRole("region", { name: "Selected todos" });
  const pick = (n: number, modifiers?: ["Shift"]) => row(page, `Task ${n}`).getByRole("checkbox", { name: `Select: Task ${n}` }).click({ modifiers });

  // Latest activity first: Task 4 (done last), 5, 3, 2, 1. A click and a Shift+click choose the three.
  await page.getByRole("button", { name: "Select", exact: true }).click();
  await expect(page.getByRole("button", { name: "Select", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(bar.getByRole("status").first()).toHaveText("No todo selected");
  // While selecting, a row has its check box only: no Mark done, no menu.
  await expect(row(page, "Task 5").getByLabel("Actions for Task 5")).toHaveCount(0);
  await pick(4);
  await pick(3, ["Shift"]);
  await expect(bar.getByRole("status").first()).toHaveText("3 todos selected");
  for (const n of [5, 4, 3]) await expect(row(page, `Task ${n}`).getByRole("checkbox")).toBeChecked();
  await expect(row(page, "Task 2").getByRole("checkbox")).not.toBeChecked();
  await snap(page, info, "todo-actions-select");

  // Task 4 is done already: Mark done counts the two it changes, and Task 4 stays selected.
  await bar.getByRole("button", { name: "Mark done (2)" }).click();
  await expect(bar.getByRole("status").filter({ hasText: "marked done" })).toHaveText("2 todos marked done.");
  for (const n of [5, 3]) await expect(row(page, `Task ${n}`).getByTestId("todo-status")).toHaveText("Done");
  await expect(row(page, "Task 1").getByTestId("todo-status")).toHaveText("To do");
  await expect(bar.getByRole("status").first()).toHaveText("1 todo selected");

  // Select all, then move every one of them into Garden.
  await bar.getByRole("button", { name: "Select all 5" }).click();
  await expect(bar.getByRole("status").first()).toHaveText("5 todos selected");
  await bar.getByLabel("Move the selected todos to").selectOption("garden");
  await expect(bar.getByRole("status").filter({ hasText: "moved" })).toHaveText("5 todos moved to Garden.");
  await expect(page.getByTestId("todo-group").filter({ hasText: "Garden" }).getByTestId("todo-row")).toHaveCount(5);
  await expect.poll(async () => (await listTodos(u, p.id)).items.map((t) => t.groupSlug)).toEqual(["garden", "garden", "garden", "garden", "garden"]);

  // Escape leaves selection; x on the todo in focus starts it again with that todo.
  await page.keyboard.press("Escape");
  await expect(bar).toHaveCount(0);
  await expect(row(page, "Task 1").getByRole("checkbox", { name: "Mark done: Task 1" })).toBeVisible();
  await row(page, "Task 2").getByRole("link").focus();
  await page.keyboard.press("x");
  await expect(bar.getByRole("status").first()).toHaveText("1 todo selected");
  await expect(row(page, "Task 2").getByRole("checkbox")).toBeChecked();
  await row(page, "Task 1").getByRole("link").focus();
  await page.keyboard.press("x");
  await expect(bar.getByRole("status").first()).toHaveText("2 todos selected");

  // Both were created without the agent: Start starts it on each (their first messages).
  await bar.getByRole("button", { name: "▶ Start" }).click();
  await expect(bar.getByRole("status").filter({ hasText: "started" })).toHaveText("2 todos started.");
  for (const t of todos.slice(0, 2)) await expect.poll(async () => (await getTodo(u, t.id)).status, { timeout: TURN_TIMEOUT }).toMatch(/RUNNING|READY/);
  await expect(bar.getByRole("status").first()).toHaveText("No todo selected");
  await expect(bar.getByRole("button", { name: /Start/ })).toHaveCount(0);
  await pick(2);
  await pick(1);

  // Delete asks first, in a dialog; Cancel keeps them.
  await bar.getByRole("button", { name: "Delete…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete 2 todos?" });
  await expect(dialog).toContainText("They and all their messages will be deleted for good.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(rows(page)).toHaveCount(5);
  await bar.getByRole("button", { name: "Delete…" }).click();
  await dialog.getByRole("button", { name: "Delete 2 todos" }).click();
  await expect(bar.getByRole("status").filter({ hasText: "deleted" })).toHaveText("2 todos deleted.");
  await expect(rows(page)).toHaveCount(3);
  await expect(row(page, "Task 1")).toHaveCount(0);
  for (const t of todos.slice(0, 2)) expect((await u.session.get(`/api/v1/todos/${t.id}`, { headers: h(u) })).status()).toBe(404);
  await expect(bar.getByRole("status").first()).toHaveText("No todo selected");
  await snap(page, info, "todo-actions-select-deleted");

  await bar.getByRole("button", { name: "Done", exact: true }).click();
  await expect(bar).toHaveCount(0);
});
