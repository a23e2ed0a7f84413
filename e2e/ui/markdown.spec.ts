import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { addMessage, createProject, createTodo } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";

// Messages render as Markdown (GFM), and nothing in a message can inject HTML or script.
test.use({ timezoneId: "UTC" });

const HOSTILE = [
  "<script>window.__pwned = 1</script>",
  '<img src="x" onerror="window.__pwned = 2">',
  "[click me](javascript:window.__pwned=3)",
  '<a href="javascript:window.__pwned=4">raw link</a>',
  "<b>bold html</b>",
].join("\n\n");

test("a message with script, onerror, javascript: links and raw HTML renders as text", async ({ page }, info) => {
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Hostile");
  const t = await createTodo(u, p.id, "Hostile content");
  await addMessage(u, t.id, { content: HOSTILE, startProcessing: false });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const message = page.getByTestId("message").filter({ hasText: "bold html" });
  await expect(message).toBeVisible();
  const content = message.getByTestId("message-content");
  // The raw HTML shows as the characters it was written with.
  await expect(content).toContainText("<script>window.__pwned = 1</script>");
  await expect(content).toContainText('<img src="x" onerror="window.__pwned = 2">');
  await expect(content).toContainText("<b>bold html</b>");
  // No element came from the message's HTML, and the Markdown link lost its javascript: URL.
  await expect(content.locator("script, img, b, iframe")).toHaveCount(0);
  const hrefs = await content.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  for (const href of hrefs) expect(href.toLowerCase()).not.toContain("javascript:");
  const link = content.getByText("click me");
  await expect(link).toBeVisible();
  await link.click();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await snap(page, info, "markdown-hostile");
});

test("GFM renders: tables, task lists, strikethrough, autolinks, code with highlighting and Copy", async ({ page, context }, info) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Markdown");
  const t = await createTodo(u, p.id, "Markdown");
  const md = [
    "## Plan",
    "Some **bold**, _italic_, ~~gone~~ and `inline code`.",
    "",
    "| Step | Owner |",
    "| --- | --- |",
    "| Buy soil | Ada |",
    "",
    "- [x] done thing",
    "- [ ] open thing",
    "",
    "See https://example.com/docs for more.",
    "",
    "```ts",
    "const answer: number = 42;",
    "```",
  ].join("\n");
  await addMessage(u, t.id, { content: md, startProcessing: false });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);
  const content = page.getByTestId("message").filter({ hasText: "Buy soil" }).getByTestId("message-content");
  await expect(content.getByRole("heading", { name: "Plan" })).toBeVisible();
  await expect(content.locator("strong")).toHaveText("bold");
  await expect(content.locator("del")).toHaveText("gone");
  await expect(content.getByRole("table")).toContainText("Buy soil");
  await expect(content.locator('input[type="checkbox"]')).toHaveCount(2);
  await expect(content.locator('input[type="checkbox"]').first()).toBeChecked();
  const autolink = content.getByRole("link", { name: "https://example.com/docs" });
  await expect(autolink).toHaveAttribute("href", "https://example.com/docs");
  await expect(autolink).toHaveAttribute("rel", "noopener noreferrer");
  await expect(autolink).toHaveAttribute("target", "_blank");
  // The code block is monospace and highlighted (the highlighter loads on demand).
  const code = content.locator("pre code");
  await expect(code).toHaveText("const answer: number = 42;");
  await expect(code.locator(".hljs-keyword").first()).toBeVisible();
  expect(await code.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono|Menlo|Consolas/i);
  await content.getByRole("button", { name: "Copy code" }).click();
  await expect(content.getByRole("button", { name: "Copy code" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("const answer: number = 42;\n");
  // The whole message copies as the Markdown it was written in.
  const message = page.getByTestId("message").filter({ hasText: "Buy soil" });
  await message.getByRole("button", { name: /^Copy this message from / }).click();
  await expect(message.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(md);
  await snap(page, info, "markdown-gfm");
});
