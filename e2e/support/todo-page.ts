import { expect, type Locator, type Page } from "@playwright/test";

/** The todo chat page (components/todo), as a test sees it. */
export class TodoChatPage {
  readonly status: Locator;
  readonly live: Locator;
  readonly messages: Locator;
  readonly replies: Locator;
  readonly composer: Locator;
  readonly controls: Locator;

  constructor(readonly page: Page) {
    this.status = page.getByTestId("todo-status");
    this.live = page.getByTestId("realtime-status");
    this.messages = page.getByTestId("message");
    this.replies = page.locator('[data-testid="message"][data-role="assistant"]');
    this.composer = page.getByRole("form", { name: "New message" });
    this.controls = page.getByRole("group", { name: "Todo status actions" });
  }

  async open(projectId: string, todoId: string): Promise<void> {
    await this.page.goto(`/projects/${projectId}/todos/${todoId}`);
    await expect(this.status).toBeVisible();
    // Subscribed: every event from here on reaches the page.
    await expect(this.live).toHaveAttribute("data-live", "live");
  }

  control(name: string): Locator {
    return this.controls.getByRole("button", { name, exact: true });
  }

  /** The message whose text is exactly `text` (a reply quoting it does not match). */
  message(text: string | RegExp): Locator {
    const exact = typeof text === "string" ? new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : text;
    return this.messages.filter({ has: this.page.getByTestId("message-content").filter({ hasText: exact }) });
  }

  async write(text: string): Promise<void> {
    await this.composer.getByLabel("Message").fill(text);
  }

  async send(text: string): Promise<void> {
    await this.write(text);
    await this.composer.getByRole("button", { name: "Send", exact: true }).click();
    await expect(this.composer.getByLabel("Message")).toHaveValue("");
  }
}

/** `datetime-local` value of an instant, for pages running with timezoneId "UTC". */
export const utcInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/** The instant a minute-precision `datetime-local` value names, in UTC. */
export const utcMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/**
 * The OpenAI-compatible stand-in echoes the message two words per 20 ms: these 600 words write for
 * about 6 s, so a page on a loaded machine still sees the todo Running and the reply being written
 * (the built-in agent's 2 s reply could end before it did).
 */
export const LONG = `Plan a balcony garden: ${Array.from({ length: 600 }, (_, i) => `word${i}`).join(" ")}`;

/** Records, in the page, every text the newest agent reply under `root` showed while it was still being written (read with `streamed`). */
export async function recordStreaming(page: Page, root = '[data-testid="messages"]'): Promise<void> {
  await page.evaluate((rootSelector) => {
    const seen: { text: string; state: string }[] = [];
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    const root = document.querySelector(rootSelector)!;
    new MutationObserver(() => {
      const replies = root.querySelectorAll('[data-testid="message"][data-role="assistant"]');
      const last = replies[replies.length - 1] as HTMLElement | undefined;
      if (!last) return;
      const text = last.querySelector('[data-testid="message-content"]')?.textContent ?? "";
      const state = last.dataset.state ?? "";
      const prev = seen[seen.length - 1];
      if (!prev || prev.text !== text || prev.state !== state) seen.push({ text, state });
    }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  }, root);
}

export const streamed = (page: Page) => page.evaluate(() => (window as unknown as { __seen: { text: string; state: string }[] }).__seen);
