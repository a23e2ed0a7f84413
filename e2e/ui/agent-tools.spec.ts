import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { TURN_TIMEOUT, createProject, createTodo, expectNull, getTodo, h, listTodos, waitForReply, waitForStatus } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";

// The agent's tool steps in the chat, against the real server and the OpenAI-compatible stand-in
// (scripts/openai-standin-server.ts: "[checklist]", "[spawn]" and "[show]" make it call those tools).
test.describe.configure({ timeout: 120_000 });

test("a tool call shows as a readable step with its detail, and the checklist it added", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Tools");
  const t = await createTodo(u, p.id, { content: "Camping trip", agentSettings: { provider: "openai" } });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await chat.composer.getByLabel("Message").fill("Make me a list [checklist]");
  await chat.composer.getByLabel("Message").press("Control+Enter");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  const step = page.getByTestId("tool-step");
  await expect(step).toHaveAttribute("data-state", "done");
  await expect(step.getByTestId("tool-step-summary")).toHaveText("Added 2 checklist items");
  // The detail is collapsed until opened (keyboard: the summary is focusable).
  await expect(step.getByText("checklist — input")).toBeHidden();
  await step.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(step.getByText("checklist — input")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Pack the tent" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Buy snacks" })).toBeVisible();
  await expect(chat.replies.last().getByTestId("message-content")).toHaveText("The checklist is ready.");
  await snap(page, info, "agent-tool-step");
});

test("data shown through a card: a bar chart in a sandboxed frame as tall as its content, its data to read, the card listed in the project's settings and reused by name; the public page shows it too", async ({ page, browser }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Numbers");
  const t = await createTodo(u, p.id, { content: "Chart the sales", agentSettings: { provider: "openai" } });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await chat.composer.getByLabel("Message").fill("As a chart please [show]");
  await chat.composer.getByLabel("Message").press("Control+Enter");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  await expect(page.getByTestId("tool-step-summary")).toHaveText("Made the card “Bar chart” and showed data with it");
  const shown = page.getByTestId("show-block");
  await expect(shown).toHaveCount(1);
  await expect(shown.locator("figcaption")).toContainText("Sales");
  await expect(shown.locator("figcaption")).toContainText("Card: Bar chart");
  // The card ran: {{title}} filled in, and its script drew one bar per row.
  const frame = shown.frameLocator("iframe");
  await expect(frame.getByRole("heading", { name: "Sales by month" })).toBeVisible();
  await expect(frame.locator(".row")).toHaveCount(3);
  await expect(frame.locator(".row[data-label='Feb'] .bar")).toHaveCSS("width", "192px");
  // Sandboxed: scripts, but no same origin (the page cannot reach into it, nor it into the page).
  const iframe = shown.locator("iframe");
  await expect(iframe).toHaveAttribute("sandbox", "allow-scripts");
  expect(await iframe.evaluate((el: HTMLIFrameElement) => el.contentDocument)).toBeNull();
  // As tall as its content (the frame says so), not the default 160 px with a scroll bar.
  await expect.poll(async () => (await iframe.boundingBox())!.height).toBeLessThan(150);
  expect((await iframe.boundingBox())!.height).toBeGreaterThan(60);
  await shown.getByText("Data", { exact: true }).click();
  await expect(shown.locator("pre")).toContainText('"label": "Feb"');
  await snap(page, info, "agent-show-card");

  // Reused by name with other data; the project's settings list the card once, with its HTML.
  await chat.composer.getByLabel("Message").fill("Now the visits [show-again]");
  await chat.composer.getByLabel("Message").press("Control+Enter");
  await expect(page.getByTestId("show-block")).toHaveCount(2, { timeout: TURN_TIMEOUT });
  await expect(page.getByTestId("tool-step-summary").last()).toHaveText("Showed data with the card “Bar chart”");
  await expect(page.getByTestId("show-block").last().frameLocator("iframe").locator(".row")).toHaveCount(2);
  await page.goto(`/projects/${p.id}/settings`);
  const cards = page.getByTestId("card-item");
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText("Bar chart · One bar per row");
  await cards.getByText(/^HTML \(/).click();
  await expect(cards.locator("pre")).toContainText("cardData.rows");
  await snap(page, info, "project-cards");

  // The public page shows the same chart to anyone.
  expect((await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { isPublic: true } })).status()).toBe(200);
  const visitor = await browser.newPage();
  try {
    await visitor.goto(new URL(`/share/${t.id}`, page.url()).toString());
    await expect(visitor.getByTestId("show-block").first().frameLocator("iframe").locator(".row")).toHaveCount(3);
  } finally {
    await visitor.close();
  }
});

test("a project without cards says so in its settings", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Plain");
  await page.goto(`/projects/${p.id}/settings`);
  await expect(page.getByTestId("cards-empty")).toBeVisible();
});

test("spawned sub-todos show as live child cards that reach Ready; the parent then continues with their results", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Split");
  const t = await createTodo(u, p.id, { content: "Split the work", agentSettings: { provider: "openai" } });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  await chat.composer.getByLabel("Message").fill("Do it in parts [spawn]");
  await chat.composer.getByLabel("Message").press("Control+Enter");
  const cards = page.getByTestId("subtodo-card");
  await expect(cards).toHaveCount(2, { timeout: TURN_TIMEOUT });
  await expect(page.getByTestId("tool-step-summary")).toHaveText("Started 2 sub-todos");
  await expect(cards.nth(0).getByRole("link")).toHaveText("Sub-task one");
  await expect(cards.nth(1).getByRole("link")).toHaveText("Sub-task two");
  // Live: each card reaches Ready with the child's reply (the stand-in echoes its task).
  for (const i of [0, 1]) {
    await expect(cards.nth(i).getByTestId("subtodo-status")).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  }
  await expect(cards.nth(0)).toContainText("Sub-task one");
  await waitForStatus(u, t.id, "READY");
  await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
  const parent = await getTodo(u, t.id);
  const last = parent.messages.at(-1)!;
  expect(last.role).toBe("assistant");
  expect(last.content).toContain("Results of the sub-todos");
  const linked = parent.messages.flatMap((m) => m.blocks).find((b) => b.type === "tool_call")!;
  expect(new Set(linked.subTodoIds).size).toBe(2);
  // The cards follow the sub-todos' events, not a timer: a change after a child settled (when no
  // poll would run any more) still reaches its card without a reload.
  const first = linked.subTodoIds[0];
  await expectNull(await u.session.put(`/api/v1/todos/${first}`, { headers: h(u), data: { content: "Sub-task one, renamed" } }));
  await expect(cards.getByRole("link", { name: "Sub-task one, renamed" })).toBeVisible();
  await snap(page, info, "agent-subtodo-cards");
});

test("the model picker lists the configured providers; a provider that is a URL is refused with 400", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const res = await u.session.get("/api/v1/settings/agent-providers", { headers: h(u) });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { providers: { name: string; models: { name: string }[] }[] };
  expect(body.providers.map((p) => p.name)).toEqual(["local", "openai"]);
  expect(JSON.stringify(body)).not.toContain("127.0.0.1");
  const p = await createProject(u, "Picker");
  for (const agentSettings of [{ provider: "http://127.0.0.1:1/v1" }, { provider: "nosuch" }, { provider: "openai", baseUrl: "http://127.0.0.1:1/v1" }]) {
    const bad = await u.session.post(`/api/v1/projects/${p.id}/todos`, { headers: h(u), data: { content: "x", agentSettings } });
    expect(bad.status(), JSON.stringify(agentSettings)).toBe(400);
  }
  await page.goto("/settings");
  const provider = page.getByLabel("Provider").first();
  await expect(provider.locator("option")).toHaveText(["Service default", "Local (built in, offline)", "openai (OpenAI-compatible)"]);
  await provider.selectOption("openai");
  await expect(page.getByTestId("model-options").first().locator("option")).toHaveCount(4);
});

test("a new todo's model is picked in its form: the first reply comes from it, and the project's other defaults are kept", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Models");
  // The creator's defaults for this project: a system prompt and a temperature, no model.
  const defaults = { systemPrompt: "Answer in one line.", temperature: 0.3 };
  await expectNull(await u.session.post("/api/v1/users/project-agent-mapping", { headers: h(u), data: { projectId: p.id, agentSettings: defaults } }));
  await page.goto(`/projects/${p.id}`);
  const model = page.getByLabel("Model", { exact: true });
  // The default names what the defaults run on: they name no provider, so the service's default.
  await expect(model.locator("option").first()).toHaveText("Default (built-in offline agent)");
  await expect(model.locator("optgroup")).toHaveCount(2);
  await page.getByLabel("New todo").fill("Name three rivers");
  await model.selectOption({ label: "gpt-4.1-mini" });
  await page.getByLabel("Agent", { exact: true }).selectOption("Start the agent now");
  await page.getByRole("button", { name: "Add todo" }).click();
  await expect(page.getByLabel("New todo")).toHaveValue("");
  await snap(page, info, "new-todo-model");
  // The choice stays for the next todo; "Default" sends none, and the server applies the defaults.
  await expect(model).toHaveValue(/gpt-4\.1-mini/);
  await page.getByLabel("New todo").fill("Water the fern");
  await model.selectOption({ index: 0 });
  await page.getByRole("button", { name: "Add todo" }).click();
  await expect(page.getByLabel("New todo")).toHaveValue("");
  const items = (await listTodos(u, p.id)).items;
  const picked = items.find((t) => t.content === "Name three rivers")!;
  const plain = items.find((t) => t.content === "Water the fern")!;
  expect(picked.agentSettings).toEqual({ ...defaults, provider: "openai", model: "gpt-4.1-mini" });
  expect(plain.agentSettings).toEqual(defaults);
  const reply = (await waitForReply(u, picked.id)).messages.at(-1)!;
  expect(reply.usage).toMatchObject({ provider: "openai", model: "gpt-4.1-mini" });
});
