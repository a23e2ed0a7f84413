import { expect, test } from "@playwright/test";
import { expectAccessible, signedInUser, snap } from "../support/ui";
import { createUser } from "../support/users";
import {
  MISSING_ID,
  TURN_TIMEOUT,
  addMessage,
  createProject,
  createTodo,
  getTodo,
  h,
  okJson,
  setAgentSettings,
  setStatus,
  shareProject,
  waitForReply,
  waitForStatus,
  type Todo,
} from "../support/todos";
import { LONG, TodoChatPage, recordStreaming, streamed, utcInput, utcMinute } from "../support/todo-page";

// The todo chat page against the real server (AGENT_STEP_MS=100: a reply streams in about 20 steps).
test.describe.configure({ timeout: 120_000 });
test.use({ timezoneId: "UTC" });


test("the agent's reply streams in while it is written, then the todo is READY", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Garden");
  const t = await createTodo(u, p.id, { content: "Balcony garden", agentSettings: { provider: "openai", model: "gpt-4o-mini" } });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Balcony garden");
  await expect(chat.status).toHaveText("To do");
  await expect(page.getByRole("link", { name: "← Back to project" })).toHaveAttribute("href", `/projects/${p.id}`);
  await snap(page, info, "todo-new");

  await recordStreaming(page);
  // Ctrl+Enter sends from the keyboard.
  await chat.composer.getByLabel("Message").fill(LONG);
  await chat.composer.getByLabel("Message").press("Control+Enter");
  // (The finished reply echoes it: the user's message is the first one with this text.)
  await expect(chat.message(LONG).first()).toBeVisible();
  await expect(chat.status).toHaveText("Running");
  await expect(page.getByTestId("writing")).toBeVisible();
  await snap(page, info, "todo-streaming");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  await expect(page.getByTestId("writing")).toHaveCount(0);

  const done = await waitForReply(u, t.id);
  const reply = done.messages.at(-1)!.content;
  await expect(chat.replies.last().getByTestId("message-content")).toHaveText(reply);
  // The page showed parts of the reply while it was still PROCESSING, each a prefix of the whole.
  const partial = (await streamed(page)).filter((s) => s.state === "PROCESSING" && s.text.length > 0);
  expect(partial.length, JSON.stringify(await streamed(page))).toBeGreaterThanOrEqual(2);
  for (const s of partial) expect(reply.startsWith(s.text), s.text).toBe(true);
  expect(partial.some((s) => s.text.length < reply.length)).toBe(true);
  await expect(chat.replies.last()).toHaveAttribute("data-state", "DONE");
  await snap(page, info, "todo-ready");
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "todo-ready-375");
});

test("a checklist from the user's list: checking an item persists, and rolls back when the API refuses", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Errands");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await chat.send("Errands for today:\n- a\n- b");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  const a = page.getByRole("checkbox", { name: "a", exact: true });
  const b = page.getByRole("checkbox", { name: "b", exact: true });
  await expect(a).not.toBeChecked();
  await expect(b).not.toBeChecked();

  // From the keyboard: focus the box, Space ticks it.
  await a.focus();
  await a.press("Space");
  await expect(a).toBeChecked();
  await expect
    .poll(async () => (await getTodo(u, t.id)).blocks.map((x) => [(x.content as { text: string }).text, x.checked]))
    .toEqual([["a", true], ["b", false]]);
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "a", exact: true })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "b", exact: true })).not.toBeChecked();
  await expect(chat.live).toHaveAttribute("data-live", "live");

  // Another client checks b: block.updated brings it here without a reload.
  const blockB = (await getTodo(u, t.id)).blocks.find((x) => (x.content as { text: string }).text === "b")!;
  expect((await u.session.post(`/api/v1/todos/${t.id}/blocks/${blockB.blockId}/checked`, { headers: h(u), data: { checked: true } })).status()).toBe(200);
  await expect(page.getByRole("checkbox", { name: "b", exact: true })).toBeChecked();

  // The server refuses: the box goes back and the API's message shows.
  await page.route(`**/cookie/v1/todos/${t.id}/blocks/*/checked`, (route) =>
    route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ message: "This block is not actionable", code: "CONFLICT" }) }),
  );
  // (A click, not uncheck(): the box is back before Playwright could see it change.)
  await page.getByRole("checkbox", { name: "a", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This block is not actionable" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "a", exact: true })).toBeChecked();
  expect((await getTodo(u, t.id)).blocks.find((x) => x.blockId !== blockB.blockId)!.checked).toBe(true);
  await snap(page, info, "checklist");

  // A sub-agent run linked to a block shows under it, live, as a card linking to its chat page.
  const sub = await createTodo(u, p.id, "Sub-run for b");
  expect((await u.session.post(`/api/v1/todos/${t.id}/blocks/${blockB.blockId}/subtodo`, { headers: h(u), data: { subTodoIds: [sub.id] } })).status()).toBe(200);
  const card = page.getByTestId("block").filter({ hasText: "b" }).getByTestId("subtodo-card");
  await expect(card.getByTestId("subtodo-status")).toHaveText("To do");
  const link = card.getByRole("link", { name: "Sub-run for b" });
  await expect(link).toHaveAttribute("href", `/projects/${p.id}/todos/${sub.id}`);
  await link.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sub-run for b");
});

test("a checklist item links other todos of the project: found by their words, shown as live cards, each offered once", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Move");
  const other = await createProject(u, "Elsewhere");
  const t = await createTodo(u, p.id, "Moving day");
  const train = await createTodo(u, p.id, "Book the train");
  await createTodo(u, p.id, "Book the van");
  await createTodo(u, p.id, "Water the plants");
  await createTodo(u, other.id, "Book a table");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await chat.send("Moving day:\n- travel\n- stay");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });

  const travel = page.getByTestId("block").filter({ has: page.getByRole("checkbox", { name: "travel", exact: true }) });
  const open = travel.getByRole("button", { name: /^(Link todos|Done linking todos) to “travel”$/ });
  await expect(open).toHaveAccessibleName("Link todos to “travel”");
  await open.click();
  await expect(open).toHaveAttribute("aria-expanded", "true");
  await expect(open).toHaveAccessibleName("Done linking todos to “travel”");
  const panel = page.getByRole("group", { name: "Link todos to “travel”" });
  const find = panel.getByRole("searchbox", { name: "Find a todo of this project" });
  await expect(find).toBeFocused();
  await expect(panel).toContainText("Links stay: they cannot be removed.");
  // Without words: the project's other todos, not this one, not another project's.
  const offered = panel.getByRole("list", { name: "Todos to link" }).getByRole("listitem");
  await expect(offered).toHaveCount(3);
  await expect(offered.filter({ hasText: "Moving day" })).toHaveCount(0);
  await find.fill("Book");
  await expect(offered).toHaveCount(2);
  await expect(offered.filter({ hasText: "Book a table" })).toHaveCount(0);
  await panel.getByRole("button", { name: "Link “Book the train”" }).click();
  await expect(panel.getByRole("status")).toHaveText("Linked “Book the train”.");
  // The link arrives as the block's event: a live card under the item, and the todo is not offered again.
  const card = travel.getByTestId("subtodo-card");
  await expect(card.getByRole("link", { name: "Book the train" })).toHaveAttribute("href", `/projects/${p.id}/todos/${train.id}`);
  await expect(offered).toHaveCount(1);
  await expect(offered).toContainText("Book the van");
  await travel.scrollIntoViewIfNeeded();
  await snap(page, info, "checklist-link-todos");
  const blocks = (await getTodo(u, t.id)).blocks;
  expect(blocks.map((b) => [(b.content as { text: string }).text, b.subTodoIds])).toEqual([["travel", [train.id]], ["stay", []]]);
  await find.fill("zebra");
  await expect(panel).toContainText("No other todo of this project matches “zebra”.");
  await expect(panel.getByRole("status")).toHaveText("");
  // Escape closes it and gives the keyboard back to the button.
  await find.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(open).toBeFocused();
  await expect(open).toHaveAccessibleName("Link todos to “travel”");
  // The card follows the linked todo: renamed elsewhere, it changes here without a reload.
  expect((await u.session.put(`/api/v1/todos/${train.id}`, { headers: h(u), data: { content: "Book the night train" } })).status()).toBe(200);
  await expect(card.getByRole("link", { name: "Book the night train" })).toBeVisible();
});

test("pause mid-turn stops the reply; resume finishes it", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  // The OpenAI-compatible stand-in echoes the message two words per 20 ms: 1,200 words write for
  // about 12 s, so the pause lands mid-reply however loaded the machine (the built-in agent's 2 s
  // reply could end before a slow page showed it being written).
  const t = await createTodo(u, p.id, { content: "Long answer", agentSettings: { provider: "openai", model: "gpt-4o-mini" } });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);

  await chat.send(Array.from({ length: 1200 }, (_, i) => `step${i}`).join(" "));
  await expect(page.getByTestId("writing")).toBeVisible({ timeout: TURN_TIMEOUT });
  await chat.control("Pause").click();
  await expect(chat.status).toHaveText("Paused", { timeout: TURN_TIMEOUT });
  await expect(page.getByTestId("paused-reply")).toBeVisible();
  await expect(chat.control("Pause")).toHaveCount(0);
  await expect(chat.control("Resume")).toBeVisible();
  const stopped = await waitForStatus(u, t.id, "PAUSED");
  const cut = stopped.messages.at(-1)!;
  expect(cut).toMatchObject({ role: "assistant", state: "PROCESSING" });
  await expect(chat.replies.last().getByTestId("message-content")).toHaveText(cut.content);
  await snap(page, info, "paused");

  await chat.control("Resume").click();
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  const done = await waitForReply(u, t.id);
  const full = done.messages.at(-1)!;
  expect(full.messageId).toBe(cut.messageId);
  expect(full.content.startsWith(cut.content) && full.content.length > cut.content.length).toBe(true);
  expect(full.content.endsWith("step1199")).toBe(true);
  await expect(chat.replies.last().getByTestId("message-content")).toHaveText(full.content);
  await expect(page.getByTestId("paused-reply")).toHaveCount(0);
});

test("cancel ends the todo: no status controls but Run again, no composer; an ERROR todo shows its reason", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Maybe later");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await expect(chat.controls.getByRole("button")).toHaveText(["Complete", "Cancel"]);
  await chat.control("Cancel").click();
  await expect(chat.status).toHaveText("Cancelled");
  await expect(chat.controls.getByRole("button")).toHaveText(["↻ Run again"]);
  await expect(chat.composer.getByLabel("Message")).toBeDisabled();
  await expect(chat.composer).toContainText("This todo is cancelled");
  // Its first message will not be answered now, and no model is left to choose.
  await expect(chat.message("Maybe later")).toContainText("not answered: the todo was cancelled");
  await expect(chat.composer.getByLabel("Model")).toHaveCount(0);
  expect((await getTodo(u, t.id)).status).toBe("CANCELLED");
  await snap(page, info, "cancelled");

  // A turn that fails leaves ERROR with the reason, which the page shows.
  const failing = await createTodo(u, p.id, { content: "Please [fail] now", startProcessing: true, agentSettings: { provider: "openai" } });
  const failed = await waitForStatus(u, failing.id, "ERROR");
  await chat.open(p.id, failing.id);
  await expect(chat.status).toHaveText("Error");
  await expect(page.getByTestId("error-reason")).toContainText(String(failed.metadata.error));
  await expect(chat.controls.getByRole("button")).toHaveText(["Complete", "Cancel", "↻ Run again"]);
  await snap(page, info, "error-status");
});

test("a page that missed the news shows the API's refusal of a stale edit and of a status change", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Call the plumber", scheduledAt: Date.now() + 3_600_000 });
  const other = await createTodo(u, p.id, "Buy milk");
  // No real-time connection for this page: it cannot learn of changes made elsewhere.
  await page.routeWebSocket(/socket\.io/, () => undefined);
  const chat = new TodoChatPage(page);
  await page.goto(`/projects/${p.id}/todos/${t.id}`);
  await expect(chat.status).toHaveText("Scheduled");
  await chat.message("Call the plumber").getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: "Edit scheduled message" });
  await form.getByLabel("Message").fill("Call the plumber at nine");

  // Elsewhere, the scheduled message is started: editing it is now a 409.
  const started = await u.session.post(`/api/v1/todos/${t.id}/update-start`, { headers: h(u), data: { messageId: t.messages[0]!.messageId, content: "Call the plumber" } });
  expect(started.status(), await started.text()).toBe(200);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /^Could not save: .+/ })).toBeVisible();
  await snap(page, info, "stale-edit");

  // Elsewhere, the todo is cancelled: the Complete this page still offers is refused.
  await page.goto(`/projects/${p.id}/todos/${other.id}`);
  await expect(chat.status).toHaveText("To do");
  await setStatus(u, other.id, "cancel");
  await chat.control("Complete").click();
  await expect(page.getByRole("alert").filter({ hasText: /^Complete failed: .+/ })).toBeVisible();
  // The page then reloads the todo and shows where it really is.
  await expect(chat.status).toHaveText("Cancelled");
});

test("schedule a message, edit its content and time, then send it now", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Plants");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);

  await chat.write("Water the plants");
  await chat.composer.getByRole("button", { name: "Schedule…" }).click();
  const when = chat.composer.getByLabel("Send at");
  await when.fill(utcInput(Date.now() - 3_600_000));
  await chat.composer.getByRole("button", { name: "Schedule message" }).click();
  await expect(chat.composer.getByRole("alert")).toHaveText("Time: must be in the future");

  const first = Date.now() + 2 * 3_600_000;
  await when.fill(utcInput(first));
  await chat.composer.getByRole("button", { name: "Schedule message" }).click();
  const scheduled = chat.message("Water the plants");
  await expect(scheduled.getByTestId("scheduled-at")).toBeVisible();
  await expect(chat.status).toHaveText("Scheduled");
  const stored = (await getTodo(u, t.id)).messages.at(-1)!;
  expect(stored).toMatchObject({ content: "Water the plants", state: "SCHEDULED", scheduledAt: utcMinute(first) });
  await snap(page, info, "scheduled");

  // Edit content and time; an empty message is refused by the shared schema first.
  await scheduled.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: "Edit scheduled message" });
  await form.getByLabel("Message").fill("   ");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("alert")).toContainText("Message: must not be empty");
  const later = Date.now() + 26 * 3_600_000;
  await form.getByLabel("Message").fill("Water the plants, twice");
  await form.getByLabel("Send at").fill(utcInput(later));
  await snap(page, info, "scheduled-edit");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toHaveCount(0);
  await expect(chat.message("Water the plants, twice")).toBeVisible();
  await expect.poll(async () => (await getTodo(u, t.id)).messages.at(-1)).toMatchObject({ content: "Water the plants, twice", scheduledAt: utcMinute(later), state: "SCHEDULED" });
  await page.reload();
  const edited = chat.message("Water the plants, twice");
  await expect(edited.getByTestId("scheduled-at")).toContainText(new Date(utcMinute(later)).getUTCFullYear().toString());
  await expect(edited.getByTestId("scheduled-at").locator("time")).toHaveAttribute("datetime", new Date(utcMinute(later)).toISOString());
  await expect(chat.live).toHaveAttribute("data-live", "live");

  await edited.getByRole("button", { name: "Send now" }).click();
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  await expect(edited.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(edited.getByTestId("scheduled-at")).toHaveCount(0);
  const done = await waitForReply(u, t.id);
  expect(done.messages.find((m) => m.messageId === stored.messageId)).toMatchObject({ content: "Water the plants, twice", state: "DONE" });
  await expect(chat.replies.last().getByTestId("message-content")).toHaveText(done.messages.at(-1)!.content);
});

test("make the todo public, copy its link, and read it signed out; private again hides it", async ({ page, browser }, info) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Trip:\n- Tickets\n- Hotel", startProcessing: true, assignedAgent: "Trip planner" });
  const ready = await waitForReply(u, t.id);
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await expect(page.getByTestId("visibility")).toContainText("Private");

  await page.getByRole("button", { name: "Make public" }).click();
  const url = `${u.baseURL}/share/${t.id}`;
  await expect(page.getByTestId("share-url")).toHaveValue(url);
  await expect.poll(async () => (await getTodo(u, t.id)).isPublic).toBe(true);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("Copied", { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await snap(page, info, "public");

  const visitor = await browser.newContext();
  try {
    const shared = await visitor.newPage();
    await shared.goto(url);
    await expect(shared.getByTestId("public-todo")).toBeVisible();
    await expect(shared.getByRole("heading", { level: 1 })).toHaveText(ready.content);
    await expect(shared.getByTestId("todo-status")).toHaveText("Ready");
    // The public todo carries content, status, messages and blocks only: no agent name or settings.
    await expect(shared.getByTestId("agent-name")).toHaveCount(0);
    await expect(shared.getByTestId("message-content").last()).toHaveText(ready.messages.at(-1)!.content);
    await expect(shared.getByTestId("block")).toHaveText(["☐Tickets", "☐Hotel"]);
    // Read-only: nothing to press, type into or tick.
    await expect(shared.getByRole("button")).toHaveCount(0);
    await expect(shared.getByRole("textbox")).toHaveCount(0);
    await expect(shared.getByRole("checkbox")).toHaveCount(0);

    await page.getByRole("button", { name: "Make private" }).click();
    await expect(page.getByTestId("share-url")).toHaveCount(0);
    await expect.poll(async () => (await getTodo(u, t.id)).isPublic).toBe(false);
    const again = await shared.goto(url);
    expect(again?.status()).toBe(404);
    await expect(shared.getByRole("heading", { name: "This todo is not public or does not exist" })).toBeVisible();
  } finally {
    await visitor.close();
  }
});

test("load older messages pages back through a long conversation and keeps the reader's place", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Note 0");
  await setStatus(u, t.id, "complete"); // no agent turns: only our notes
  for (let i = 1; i <= 70; i++) await addMessage(u, t.id, { content: `Note ${i}`, startProcessing: false });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);

  await expect(chat.messages).toHaveCount(30);
  await expect(chat.messages.last()).toContainText("Note 70");
  await expect(chat.message(/^Note 70$/)).toBeInViewport();
  await expect(chat.messages.first()).toContainText("Note 41");
  const older = page.getByRole("button", { name: "Load older messages" });

  await chat.messages.first().scrollIntoViewIfNeeded();
  await older.click();
  await expect(chat.messages).toHaveCount(60);
  await expect(chat.messages.first()).toContainText("Note 11");
  // The message the reader was at stays in view; the new ones are above it.
  await expect(chat.message(/^Note 41$/)).toBeInViewport();
  await expect(chat.message(/^Note 11$/)).not.toBeInViewport();
  await snap(page, info, "older-loaded");

  // By keyboard: the last page gone, the line that says so has the button's focus.
  await older.focus();
  await page.keyboard.press("Enter");
  await expect(chat.messages).toHaveCount(71);
  await expect(chat.messages.first()).toContainText("Note 0");
  await expect(older).toHaveCount(0);
  await expect(page.getByText("The start of the conversation.")).toBeFocused();
  const texts = await page.getByTestId("message-content").allTextContents();
  expect(texts).toEqual(Array.from({ length: 71 }, (_, i) => `Note ${i}`));
});

test("a message added through the API appears live, and the agent's reply with it", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Shared chat");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await expect(chat.messages).toHaveCount(1);

  await addMessage(u, t.id, { content: "Sent by a script", startProcessing: true });
  await expect(chat.message("Sent by a script")).toBeVisible();
  await expect(chat.message("Sent by a script")).toHaveAttribute("data-role", "user");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  const done: Todo = await waitForReply(u, t.id);
  await expect(chat.replies.last().getByTestId("message-content")).toHaveText(done.messages.at(-1)!.content);
  await expect(chat.messages).toHaveCount(done.messages.length);
});

test("a sharee's open chat says the todo is gone when the owner deletes its project elsewhere", async ({ page }, info) => {
  const owner = await createUser(info, "owner");
  const p = await createProject(owner, "Short-lived");
  const t = await createTodo(owner, p.id, "Goes with the project");
  const sharee = await signedInUser(page, info, "sharee");
  await shareProject(owner, p.id, sharee.email, "editor");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Goes with the project");

  // Deleting the project deletes its todos without a todo.deleted each: the chat hears project.deleted.
  expect((await owner.session.delete(`/api/v1/projects/${p.id}`, { headers: h(owner) })).status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This todo was deleted" })).toBeVisible();
  await expect(chat.composer).toHaveCount(0);
});

test("a todo created without the agent offers to start it; a double click starts one turn", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Plan the picnic");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const hint = page.getByTestId("start-hint");
  await expect(hint).toContainText("its first message waits for it");
  await snap(page, info, "todo-chat-start-hint");

  // The button waits while the start is on its way: a second click must not ask again (a 409 toast).
  const starts: number[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith(`/todos/${t.id}/update-start`)) starts.push(r.status());
  });
  await hint.getByRole("button", { name: "Start the agent" }).dblclick();
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  await expect(hint).toHaveCount(0);
  expect(starts).toEqual([200]);
  const done = await waitForReply(u, t.id);
  expect(done.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
});

test("the model picker: a writer picks a configured model for the next replies, keeping the todo's other agent settings; a change elsewhere shows live", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Compare two models", agentSettings: { systemPrompt: "Answer in one line." } });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const picker = chat.composer.getByLabel("Model");
  await expect(picker).toHaveValue("");
  await expect(picker.locator("option:checked")).toHaveText(/^Default \(built-in offline agent\)$/);
  await expect(picker.locator("optgroup")).toHaveText([/Offline agent/, /gpt-4o-mini\s*gpt-4\.1-mini/]);

  await picker.selectOption({ label: "gpt-4.1-mini" });
  await expect.poll(async () => (await getTodo(u, t.id)).agentSettings).toEqual({ systemPrompt: "Answer in one line.", provider: "openai", model: "gpt-4.1-mini" });
  await expect(picker).toBeEnabled();
  await snap(page, info, "todo-chat-model-picker");

  // The next reply is written by that model, and says so.
  await chat.send("Which model are you?");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  const done = await waitForReply(u, t.id);
  expect(done.messages.at(-1)!.usage).toMatchObject({ provider: "openai", model: "gpt-4.1-mini" });
  await expect(chat.replies.last().getByTestId("reply-model")).toHaveText("gpt-4.1-mini");

  // Changed through the API (another tab, a script): the picker follows.
  await setAgentSettings(u, t.id, { provider: "local", systemPrompt: "Answer in one line." });
  await expect(picker.locator("option:checked")).toHaveText("Offline agent");
  // A provider named alone runs its default model: the picker says so, not "not available".
  await setAgentSettings(u, t.id, { provider: "openai", systemPrompt: "Answer in one line." });
  await expect(picker.locator("option:checked")).toHaveText(/\(openai's default\)$/);
  // Back to the service's default: the model is no longer named, the prompt stays.
  await picker.selectOption("");
  await expect.poll(async () => (await getTodo(u, t.id)).agentSettings).toEqual({ systemPrompt: "Answer in one line." });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(picker).toBeInViewport();
  await snap(page, info, "todo-chat-model-picker-phone");
});

test("a missing todo, or another user's, is 'Todo not found'", async ({ page, browser }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  await page.goto(`/projects/${p.id}/todos/${MISSING_ID}`);
  await expect(page.getByRole("heading", { name: "Todo not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the project" })).toHaveAttribute("href", `/projects/${p.id}`);
  await snap(page, info, "not-found");

  const strangerContext = await browser.newContext();
  try {
    const strangerPage = await strangerContext.newPage();
    await signedInUser(strangerPage, info, "stranger");
    const t = await createTodo(u, p.id, "Mine only");
    await strangerPage.goto(`/projects/${p.id}/todos/${t.id}`);
    await expect(strangerPage.getByRole("heading", { name: "Todo not found" })).toBeVisible();
    await expect(strangerPage.getByText("Mine only")).toHaveCount(0);
  } finally {
    await strangerContext.close();
  }
});

test("loading, then a failed load with the API's message, and Try again", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Flaky network");
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let failed = 0;
  await page.route(`**/cookie/v1/todos/${t.id}?*`, async (route) => {
    await held;
    await route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Internal server error", code: "INTERNAL_SERVER_ERROR" }) });
    failed += 1;
  });
  await page.goto(`/projects/${p.id}/todos/${t.id}`);
  await expect(page.getByRole("status").filter({ hasText: "Loading todo…" })).toBeVisible();
  await snap(page, info, "loading");
  release();
  await expect(page.getByRole("heading", { name: "Could not load this todo" })).toBeVisible();
  await expect(page.getByText("Internal server error")).toBeVisible();
  await snap(page, info, "load-error");

  // The page reads the todo again once its live connection is subscribed: that read must have
  // failed too before the API answers again, or it (not Try again) would load the todo first.
  await expect.poll(() => failed).toBeGreaterThanOrEqual(2);
  await page.unroute(`**/cookie/v1/todos/${t.id}?*`);
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Flaky network");
  await expect(new TodoChatPage(page).status).toHaveText("To do");
});

test("an editor sees whether the todo is public, but only the project's owner may publish it", async ({ page }, info) => {
  const editor = await signedInUser(page, info, "editor");
  const owner = await createUser(info, "owner");
  const p = await createProject(owner, "Shared");
  await shareProject(owner, p.id, editor.email, "editor");
  const t = await createTodo(owner, p.id, "Team plan");
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await expect(page.getByTestId("publish-owner-only")).toHaveText("Only the project's owner can make it public or private.");
  await expect(page.getByRole("button", { name: "Make public" })).toHaveCount(0);
  await expect(page.getByTestId("visibility")).toContainText("Private");
  // The editor still writes: the composer is there and sends.
  await chat.send("A note from the editor");
  await expect(chat.message("A note from the editor")).toBeVisible();

  // Published by the owner: the editor sees the link, still without the switch.
  expect((await owner.session.put(`/api/v1/todos/${t.id}`, { headers: h(owner), data: { isPublic: true } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("share-url")).toHaveValue(`${editor.baseURL}/share/${t.id}`);
  await expect(page.getByRole("button", { name: "Make private" })).toHaveCount(0);
  await snap(page, info, "share-editor");
});

test("Details: a viewer opens the agent's workflow by keyboard (loading, a failed read, Try again), and it follows the summary and the turns live", async ({ page }, info) => {
  const viewer = await signedInUser(page, info, "viewer");
  const owner = await createUser(info, "owner");
  const p = await createProject(owner, "Trips");
  await shareProject(owner, p.id, viewer.email, "viewer");
  const t = await createTodo(owner, p.id, "Plan Lisbon");
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const workflowUrl = `**/cookie/v1/todos/${t.id}/workflow`;
  await page.route(workflowUrl, async (route) => {
    await held;
    await route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Internal server error", code: "INTERNAL_SERVER_ERROR" }) });
  });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);

  // A disclosure, closed at first; Enter on its summary opens it.
  const details = page.getByTestId("todo-details");
  const toggle = details.locator("summary");
  await expect(toggle).toHaveText("Details: what the agent remembers");
  await expect(details.getByTestId("workflow")).toBeHidden();
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(details.getByRole("status").filter({ hasText: "Loading the details…" })).toBeAttached();
  release();
  await expect(details.getByRole("alert")).toHaveText("Could not load the details: Internal server error");
  await page.unroute(workflowUrl);
  await details.getByRole("button", { name: "Try again" }).click();
  await expect(details.getByTestId("workflow-state")).toHaveText("Not working on it now");
  await expect(details.getByTestId("workflow-turn")).toHaveText("The agent has not started yet");
  await expect(details.getByTestId("workflow-summary-status")).toHaveText("The whole conversation: no summary stands in for older messages.");
  // Read-only: nothing to press in it.
  await expect(details.getByRole("button")).toHaveCount(0);
  await expectAccessible(page, "todo details");

  // A summary written (here through the API, as the agent does for a long conversation) shows live…
  const summary = "The user wants three days in Lisbon in May, by train, with a budget of 600 euros.";
  expect((await owner.session.put(`/api/v1/todos/${t.id}/workflow`, { headers: h(owner), data: { contextSummary: summary } })).status()).toBe(200);
  await expect(details.getByTestId("workflow-summary")).toHaveText(summary);
  await expect(details.getByTestId("workflow-summary-status")).toHaveText("Not used yet: the agent reads this summary of the older messages on its next turn.");
  // A viewer reads it; editing it is a writer's.
  await expect(details.getByRole("button")).toHaveCount(0);
  await snap(page, info, "todo-details-summary");

  // …and the next turn uses it: the turn count and the flag follow without a reload.
  await addMessage(owner, t.id, { content: "And the hotels?", startProcessing: true });
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  await expect(details.getByTestId("workflow-turn")).toHaveText("1 turn so far");
  await expect(details.getByTestId("workflow-summary-status")).toHaveText("Used: the agent reads this summary of the older messages in their place.");
  await expect(details.getByTestId("workflow-state")).toHaveText("Not working on it now");
  await snap(page, info, "todo-details-used");

  // Enter again closes it.
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(details.getByTestId("workflow")).toBeHidden();
});

test("Details: a writer corrects the agent's summary (read on the next turn) or forgets it; an empty one is refused", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Trips");
  const t = await createTodo(u, p.id, "Plan Porto");
  const wrong = "The user wants two days in Porto in June, by plane.";
  expect((await u.session.put(`/api/v1/todos/${t.id}/workflow`, { headers: h(u), data: { contextSummary: wrong, contextSummaryUsed: true } })).status()).toBe(200);
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const details = page.getByTestId("todo-details");
  await details.locator("summary").click();
  await expect(details.getByTestId("workflow-summary")).toHaveText(wrong);
  await expect(details.getByTestId("workflow-summary-status")).toHaveText(/^Used:/);

  await details.getByRole("button", { name: "Edit summary" }).click();
  const field = details.getByLabel("Summary of the older messages", { exact: true }).and(page.locator("textarea"));
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(wrong);
  await field.fill("   ");
  await details.getByRole("button", { name: "Save summary" }).click();
  await expect(details.getByRole("alert")).toHaveText("The summary needs some text. To drop it, Discard this edit and choose Forget summary.");
  const right = "The user wants three days in Porto in May, by train, on a budget of 400 euros.";
  await field.fill(right);
  await snap(page, info, "todo-details-summary-edit");
  await field.press("Control+Enter");
  await expect(details.getByTestId("workflow-summary")).toHaveText(right);
  // Edited, it is read on the next turn.
  await expect(details.getByTestId("workflow-summary-status")).toHaveText(/^Not used yet:/);
  expect(await okJson(await u.session.get(`/api/v1/todos/${t.id}/workflow`, { headers: h(u) }))).toMatchObject({ contextSummary: right, contextSummaryUsed: false });

  // Escape leaves the editor without saving.
  await details.getByRole("button", { name: "Edit summary" }).click();
  await field.fill("Never mind");
  await field.press("Escape");
  await expect(details.getByTestId("workflow-summary")).toHaveText(right);

  await details.getByRole("button", { name: "Forget summary" }).click();
  await expect(details.getByTestId("workflow-summary-status")).toHaveText("The whole conversation: no summary stands in for older messages.");
  expect(await okJson(await u.session.get(`/api/v1/todos/${t.id}/workflow`, { headers: h(u) }))).toMatchObject({ contextSummary: null });
});

test("in a shared project each message says who wrote it: the reader's own say You, an editor's their name or email", async ({ page }, info) => {
  const owner = await signedInUser(page, info, "owner");
  const editor = await createUser(info, "editor");
  const p = await createProject(owner, "Garden");
  await shareProject(owner, p.id, editor.email, "editor");
  const t = await createTodo(owner, p.id, { content: "Plan the beds", startProcessing: false });
  await addMessage(editor, t.id, { content: "Add a row of tomatoes", startProcessing: false });
  await addMessage(owner, t.id, { content: "Fine, and basil", startProcessing: false });

  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const theirs = chat.message("Add a row of tomatoes");
  await expect(theirs.getByText(editor.email, { exact: true })).toBeVisible();
  await expect(theirs.getByRole("article", { name: `${editor.email}'s message` })).toBeVisible();
  await expect(theirs.getByText("You", { exact: true })).toHaveCount(0);
  for (const own of ["Plan the beds", "Fine, and basil"]) {
    await expect(chat.message(own).getByText("You", { exact: true })).toBeVisible();
    await expect(chat.message(own).getByText(editor.email)).toHaveCount(0);
  }
  // The editor's message sits on the other side from the reader's own: its bubble starts at the
  // list's left edge, where the reader's end at its right.
  const list = (await chat.message("Plan the beds").locator("xpath=..").boundingBox())!;
  const theirBubble = (await theirs.getByRole("article").boundingBox())!;
  const ownBubble = (await chat.message("Fine, and basil").getByRole("article").boundingBox())!;
  expect(Math.abs(theirBubble.x - list.x)).toBeLessThan(2);
  expect(Math.abs(ownBubble.x + ownBubble.width - (list.x + list.width))).toBeLessThan(2);
  expect(theirBubble.x).toBeLessThan(ownBubble.x);
  // A message the editor writes while the page is open says who, live.
  await addMessage(editor, t.id, { content: "Watering at six", startProcessing: false });
  await expect(chat.message("Watering at six").getByText(editor.email, { exact: true })).toBeVisible();
  await snap(page, info, "todo-authors");
});

test("a viewer reads the todo without controls they may not use: no status actions, sharing, composer, checkboxes or scheduled-message edits", async ({ page }, info) => {
  const viewer = await signedInUser(page, info, "reader");
  const owner = await createUser(info, "owner");
  const p = await createProject(owner, "Household");
  await shareProject(owner, p.id, viewer.email, "viewer");
  await okJson(await owner.session.put(`/api/v1/projects/${p.id}/groups/house`, { headers: h(owner), data: { name: "House" } }));
  const t = await createTodo(owner, p.id, { content: "Chores:\n- Dishes\n- Laundry", startProcessing: true, groupSlug: "house" });
  await waitForReply(owner, t.id);
  await addMessage(owner, t.id, { content: "Remind me tomorrow", scheduledAt: Date.now() + 86_400_000 });

  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await expect(page.getByTestId("block")).toHaveText(["☐Dishes", "☐Laundry"]);
  await expect(page.getByTestId("read-only")).toHaveText("You can read this todo but not change it: Household is shared with you as a viewer.");
  await expect(chat.composer).toHaveCount(0);
  await expect(chat.controls).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Make public" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit the todo's text" })).toHaveCount(0);
  // The group is named, not offered to change.
  await expect(page.getByTestId("todo-group")).toHaveText("Group: House");
  await expect(page.getByRole("combobox", { name: "Group" })).toHaveCount(0);
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Link todos/ })).toHaveCount(0);
  await expect(chat.message("Remind me tomorrow")).toBeVisible();
  await expect(chat.message("Remind me tomorrow").getByRole("button", { name: "Edit" })).toHaveCount(0);
  // The owner wrote it, not the reader: not "You" but the owner, by email (no name set), from the project's members.
  await expect(chat.message("Remind me tomorrow").getByText(owner.email, { exact: true })).toBeVisible();
  await expect(chat.message("Remind me tomorrow").getByText("You", { exact: true })).toHaveCount(0);
  // The hint to pick a model in one's settings is for those who can change the todo's agent.
  await expect(page.getByRole("button", { name: "Got it" })).toHaveCount(0);
  // Reading stays: the workflow details and reporting a reply are for readers too.
  await expect(page.getByTestId("todo-details")).toBeVisible();
  await expect(chat.replies.first().getByRole("button", { name: /^Report this reply/ })).toBeVisible();
  await expect(chat.replies.first().getByRole("button", { name: /^Copy this reply/ })).toBeVisible();
  await expectAccessible(page, "todo read-only");
  await snap(page, info, "todo-viewer");

  // Phone width: no actions menu either.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByRole("group", { name: "Todo actions" })).toHaveCount(0);
  await expect(page.locator("summary[aria-label='Todo actions']")).toHaveCount(0);
});
