import { expect, test } from "@playwright/test";
import { signedInUser } from "../support/ui";
import { TURN_TIMEOUT, createProject, createTodo, getTodo, waitForStatus } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";

// A reload in the middle of a streamed reply shows exactly what was written so far: every text the
// reply shows is a prefix of the stored reply, never one with words missing.
test.describe.configure({ timeout: 180_000 });
test.use({ timezoneId: "UTC" });

// The OpenAI-compatible stand-in echoes a message two words per 20 ms: 600 words stream for
// several seconds, so every reload below lands in the middle of a reply.
const LONG = Array.from({ length: 600 }, (_, i) => `word${i}`).join(" ");

test("reloading during a streamed reply, at several moments, never shows a gap", async ({ page }, info) => {
  // From the first paint of every load: record each text the newest reply shows while PROCESSING.
  await page.addInitScript(() => {
    const w = window as unknown as { __seen: { id: string; text: string }[] };
    w.__seen = JSON.parse(sessionStorage.getItem("__seen") ?? "[]");
    new MutationObserver(() => {
      const replies = document.querySelectorAll<HTMLElement>('[data-testid="message"][data-role="assistant"][data-state="PROCESSING"]');
      for (const r of replies) {
        const text = r.querySelector('[data-testid="message-content"]')?.textContent ?? "";
        const id = r.dataset.messageId ?? "";
        const last = w.__seen.findLast((s) => s.id === id);
        if (text && (!last || last.text !== text)) {
          w.__seen.push({ id, text });
          sessionStorage.setItem("__seen", JSON.stringify(w.__seen));
        }
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const u = await signedInUser(page, info);
  const p = await createProject(u, "Reloads");
  const t = await createTodo(u, p.id, { content: "Reload me", agentSettings: { provider: "openai", model: "gpt-4o-mini" } });
  const chat = new TodoChatPage(page);
  await chat.open(p.id, t.id);

  // Reload soon after the reply starts, a little later, and later still (one turn each).
  for (const [i, afterChars] of [0, 1000, 3000].entries()) {
    await chat.send(`${LONG} (${i})`);
    await expect.poll(async () => (await getTodo(u, t.id)).messages.at(-1)?.content.length ?? 0, { timeout: TURN_TIMEOUT }).toBeGreaterThan(afterChars);
    await page.reload();
    await expect(chat.live).toHaveAttribute("data-live", "live");
    await waitForStatus(u, t.id, "READY", TURN_TIMEOUT);
    await expect(chat.status).toHaveText("Ready");
  }
  const stored = new Map((await getTodo(u, t.id, { messageLimit: 50 })).messages.filter((m) => m.role === "assistant").map((m) => [m.messageId, m.content]));
  expect(stored.size).toBe(3);
  const seen = await page.evaluate(() => (window as unknown as { __seen: { id: string; text: string }[] }).__seen);
  for (const s of seen) {
    const full = stored.get(s.id);
    expect(full, `a reply the page showed is stored: ${s.id}`).toBeDefined();
    expect(full!.startsWith(s.text), `shown mid-stream: ${JSON.stringify(s.text)}\nstored: ${JSON.stringify(full)}`).toBe(true);
  }
  expect(seen.length, "the page showed replies mid-stream").toBeGreaterThan(0);
  // The page showed each reply's end state exactly.
  const shown = await chat.replies.getByTestId("message-content").allTextContents();
  expect(shown).toEqual([...stored.values()]);
});
