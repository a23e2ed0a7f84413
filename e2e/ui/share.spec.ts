import { expect, test } from "@playwright/test";
import { snap } from "../support/ui";
import { LONG, recordStreaming, streamed } from "../support/todo-page";
import { createUser } from "../support/users";
import { MISSING_ID, addMessage, createProject, createTodo, getTodo, h, setStatus, waitForReply, waitForStatus } from "../support/todos";

// The public todo page (app/share/[todoId]): no sign-in, read-only, the API's 404 otherwise.
test.describe.configure({ timeout: 120_000 });

test("a public todo reads the same as its owner sees it, with no controls, to a signed-out visitor", async ({ page }, info) => {
  const u = await createUser(info, "owner");
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Move house:\n- Boxes\n- Van\n- Keys", startProcessing: true, assignedAgent: "Mover" });
  const ready = await waitForReply(u, t.id);
  const [boxes] = ready.blocks;
  expect((await u.session.post(`/api/v1/todos/${t.id}/blocks/${boxes!.blockId}/checked`, { headers: h(u), data: { checked: true } })).status()).toBe(200);
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);

  const res = await page.goto(`/share/${t.id}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(ready.content);
  // The window's title and the heading name the todo by its first line, as the chat does: the
  // heading shows two lines at most (the first message below holds the rest).
  await expect(page).toHaveTitle("Move house: · Todo Service");
  const lineHeight = await page.getByRole("heading", { level: 1 }).evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect((await page.getByRole("heading", { level: 1 }).boundingBox())!.height).toBeLessThanOrEqual(2 * lineHeight + 1);
  await expect(page.getByTestId("todo-status")).toHaveText("Ready");
  // Content, status, messages and blocks only: not the agent's name or settings (docs/api.md "Public todos").
  await expect(page.getByTestId("agent-name")).toHaveCount(0);
  const messages = page.getByTestId("message");
  await expect(messages).toHaveCount(ready.messages.length);
  await expect(messages.first()).toHaveAttribute("data-role", "user");
  // A visitor is never "You"; the page names no member (the owner or an editor may have written it).
  await expect(messages.first().getByText("User", { exact: true })).toBeVisible();
  await expect(page.getByText("You", { exact: true })).toHaveCount(0);
  await expect(messages.last()).toHaveAttribute("data-role", "assistant");
  // Messages render as Markdown: the list is a list.
  const contents = page.getByTestId("message-content");
  await expect(contents.first()).toContainText("Move house:");
  await expect(contents.first().getByRole("listitem")).toHaveText(["Boxes", "Van", "Keys"]);
  await expect(contents.last()).toHaveText(ready.messages.at(-1)!.content);
  await expect(page.getByTestId("block")).toHaveText(["☑Boxes", "☐Van", "☐Keys"]);
  await expect(page.getByRole("img", { name: "Done:", exact: true })).toHaveCount(1);
  // Nothing to act with, and no way into the owner's pages.
  await expect(page.getByRole("button")).toHaveCount(0);
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to project" })).toHaveCount(0);
  expect((await page.request.get("/cookie/v1/users/profile")).status()).toBe(401);
  await snap(page, info, "share-public");
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "share-public-375");

  // Read-only for real: the owner's data did not change by the visit.
  expect((await getTodo(u, t.id)).blocks.map((b) => b.checked)).toEqual([true, false, false]);
});

test("a private or missing todo's share URL answers 'not public or does not exist' (404)", async ({ page }, info) => {
  const u = await createUser(info, "owner");
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Private plans");

  const res = await page.goto(`/share/${t.id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This todo is not public or does not exist" })).toBeVisible();
  await expect(page.getByText("Private plans")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "sign in" })).toHaveAttribute("href", "/signin");
  await snap(page, info, "share-not-public");

  // The same answer for a todo that does not exist, as the API gives for both.
  const missing = await page.goto(`/share/${MISSING_ID}`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This todo is not public or does not exist" })).toBeVisible();
  const api = await Promise.all([page.request.get(`/api/v1/public/todos/${t.id}`), page.request.get(`/api/v1/public/todos/${MISSING_ID}`)]);
  expect(api.map((r) => r.status())).toEqual([404, 404]);
  expect(await api[0]!.json()).toEqual(await api[1]!.json());
});

test("a long public todo shows its newest 50 messages and pages to older ones", async ({ page }, info) => {
  const u = await createUser(info, "owner");
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "m0");
  for (let i = 1; i < 55; i++) await addMessage(u, t.id, { content: `m${i}`, startProcessing: false });
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);

  await page.goto(`/share/${t.id}`);
  await expect(page.getByTestId("message-content")).toHaveText(Array.from({ length: 50 }, (_, i) => `m${i + 5}`));
  await expect(page.getByTestId("newest-messages")).toHaveCount(0);
  await page.getByRole("link", { name: "Older messages" }).click();
  await expect(page.getByTestId("message-content")).toHaveText(["m0", "m1", "m2", "m3", "m4"]);
  await expect(page.getByRole("link", { name: "Older messages" })).toHaveCount(0);
  await page.getByRole("link", { name: "Newest messages" }).click();
  await expect(page.getByTestId("message-content")).toHaveCount(50);
});

test("a failed public todo says so in general terms, never the provider's reason", async ({ page }, info) => {
  const u = await createUser(info, "owner");
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Please [fail] now", startProcessing: true, agentSettings: { provider: "openai", model: "gpt-4o-mini" } });
  const failed = await waitForStatus(u, t.id, "ERROR");
  const reason = String(failed.metadata.error);
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);

  await page.goto(`/share/${t.id}`);
  await expect(page.getByTestId("todo-status")).toHaveText("Error");
  await expect(page.getByText("The agent stopped with an error.")).toBeVisible();
  expect(await page.content()).not.toContain(reason);
});

test("a signed-out visitor of a share link sees new messages, the reply and status changes live, hears nothing the public read does not show, and sees it turn private", async ({ page }, info) => {
  const u = await createUser(info, "owner");
  const p = await createProject(u, "Secret project name");
  const t = await createTodo(u, p.id, "Plan the garden");
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);
  // Everything the visitor's live connection receives.
  const frames: string[] = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => void frames.push(String(f.payload))));

  await page.goto(`/share/${t.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plan the garden");
  const messages = page.getByTestId("message");
  await expect(messages).toHaveCount(1); // the todo's own first message
  await expect(page.getByTestId("live-status")).toHaveText("Live");
  await snap(page, info, "share-live-empty");

  // The owner writes and starts the agent elsewhere: the visitor's page follows without a reload.
  await addMessage(u, t.id, { content: "Which seeds first?\n- Tomatoes\n- Basil", startProcessing: true });
  await expect(messages.nth(1).getByTestId("message-content")).toContainText("Which seeds first?");
  const ready = await waitForReply(u, t.id);
  await expect(messages).toHaveCount(ready.messages.length);
  await expect(messages.last().getByTestId("message-content")).toHaveText(ready.messages.at(-1)!.content);
  await expect(page.getByTestId("todo-status")).toHaveText("Ready");
  await expect(page.getByTestId("block")).toHaveCount(ready.blocks.length);
  await snap(page, info, "share-live-reply");
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "share-live-reply-375");

  // A checked item and a status change show too.
  expect((await u.session.post(`/api/v1/todos/${t.id}/blocks/${ready.blocks[0]!.blockId}/checked`, { headers: h(u), data: { checked: true } })).status()).toBe(200);
  await expect(page.getByRole("img", { name: "Done:", exact: true })).toHaveCount(1);
  await setStatus(u, t.id, "complete");
  await expect(page.getByTestId("todo-status")).toHaveText("Done");

  // What arrived over the connection is what the public read shows (its messages) and "it
  // changed" for the rest: no project, owner, usage or the todo's status.
  const received = frames.join("\n");
  expect(received).toContain("publicTodo.changed");
  expect(received).toContain("Which seeds first?");
  for (const secret of [p.id, "Secret project name", u.userId, "projectId", "usage", "READY"]) expect(received).not.toContain(secret);

  // Made private: the open page says so, and hears nothing more of it.
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: false } })).status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This todo is not public or does not exist" })).toBeVisible();
  await expect(page.getByText("Plan the garden")).toHaveCount(0);
});

/**
 * The OpenAI-compatible stand-in echoes the message two words per 20 ms: 600 words write for about
 * 6 s, so the visitor's page sees the reply while it is being written.
 */

test("a signed-out visitor sees the agent's reply stream in word by word, as the owner's chat does, without a read per piece", async ({ page }, info) => {
  const u = await createUser(info, "owner");
  const p = await createProject(u, "Secret project name");
  const t = await createTodo(u, p.id, { content: "Balcony garden", agentSettings: { provider: "openai", model: "gpt-4o-mini" } });
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);
  const frames: string[] = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => void frames.push(String(f.payload))));
  // Reads of the public todo the page makes (todo_getPublic) while the reply streams.
  let reads = 0;
  page.on("request", (r) => {
    if (r.url().includes(`/public/todos/${t.id}`)) reads++;
  });

  await page.goto(`/share/${t.id}`);
  await expect(page.getByTestId("live-status")).toHaveText("Live");
  // Every text the newest reply showed while it was still being written.
  await recordStreaming(page, '[data-testid="public-todo"]');
  reads = 0;

  await addMessage(u, t.id, { content: LONG, startProcessing: true });
  const ready = await waitForReply(u, t.id);
  const reply = ready.messages.at(-1)!.content;
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(replies.last().getByTestId("message-content")).toHaveText(reply);
  await expect(replies.last()).toHaveAttribute("data-state", "DONE");
  await expect(page.getByTestId("todo-status")).toHaveText("Ready");

  // The page showed the reply growing while it was PROCESSING, each text a prefix of the whole.
  const seen = await streamed(page);
  const partial = seen.filter((s) => s.state === "PROCESSING" && s.text.length > 0 && s.text.length < reply.length);
  expect(partial.length, JSON.stringify(seen.map((s) => [s.state, s.text.length]))).toBeGreaterThanOrEqual(3);
  for (const s of partial) expect(reply.startsWith(s.text), s.text.slice(0, 80)).toBe(true);
  // Streamed, not read again: far fewer reads than texts shown.
  expect(reads, `${reads} reads for ${partial.length} texts`).toBeLessThan(partial.length);
  // The deltas came over the connection, with nothing the public read does not show.
  const received = frames.join("\n");
  expect(received).toContain("message.delta");
  for (const secret of [p.id, "Secret project name", u.userId, "projectId", "usage", "gpt-4o-mini"]) expect(received).not.toContain(secret);
  await snap(page, info, "share-streamed-reply");
});
