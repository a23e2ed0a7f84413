import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startBridge } from "../support/bridge";
import { signedInUser, snap } from "../support/ui";
import { TURN_TIMEOUT, createProject, createTodo, getTodo } from "../support/todos";
import { TodoChatPage } from "../support/todo-page";

// The shell approval flow from the chat: the real `todo bridge` online with a workspace, the
// OpenAI-compatible stand-in proposing `echo hello` there ("[shell <dir>]"), Approve by keyboard,
// the output and exit code live in the block, and the agent's answer with the output after it.
test.describe.configure({ timeout: 120_000 });

/** The block has no serious or critical accessibility violations (axe-core, WCAG 2.1 AA). */
async function expectAccessibleBlock(page: Page) {
  const result = await new AxeBuilder({ page }).include('[data-testid="shell-block"]').withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

test("the agent proposes a command; the chat shows it with device and path; approving runs it on the bridge and the output shows live", async ({ page, baseURL }, info) => {
  const u = await signedInUser(page, info);
  const bridge = await startBridge(baseURL!, u.apiKey, "desk-box");
  try {
    const p = await createProject(u, "Shell UI");
    const t = await createTodo(u, p.id, { content: "Hello from my machine", agentSettings: { provider: "openai" } });
    const chat = new TodoChatPage(page);
    await chat.open(p.id, t.id);
    await chat.composer.getByLabel("Message").fill(`Greet me [shell ${bridge.workspace}]`);
    await chat.composer.getByLabel("Message").press("Control+Enter");

    const block = page.getByTestId("shell-block");
    await expect(block).toHaveAttribute("data-state", "pending", { timeout: TURN_TIMEOUT });
    await expect(block.getByTestId("shell-command")).toHaveText("$ echo hello");
    await expect(block.getByTestId("shell-device")).toHaveText("desk-box");
    await expect(block.getByTestId("shell-path")).toHaveText(bridge.workspace);
    await expect(block.getByTestId("shell-state")).toHaveText("Waiting for approval");
    await expect(page.getByTestId("tool-step-summary")).toHaveText("Proposed a shell command, waiting for approval");
    await expect(block.getByTestId("shell-output")).toHaveCount(0);
    await expectAccessibleBlock(page);
    await snap(page, info, "shell-approval-pending");
    // On a phone the block fits the width, with both buttons in reach.
    const wide = page.viewportSize()!;
    await page.setViewportSize({ width: 375, height: 800 });
    await block.scrollIntoViewIfNeeded();
    await expect(block.getByRole("button", { name: "Approve" })).toBeInViewport();
    await expect(block.getByRole("button", { name: "Deny" })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await block.screenshot({ path: info.outputPath("shell-block-pending-375.png") });
    await page.setViewportSize(wide);

    // Keyboard: Tab order reaches Approve, Enter presses it.
    const approve = block.getByRole("button", { name: "Approve" });
    await expect(block.getByRole("button", { name: "Deny" })).toBeEnabled();
    await approve.focus();
    await page.keyboard.press("Enter");

    await expect(block.getByTestId("shell-output-text")).toHaveText("hello", { timeout: TURN_TIMEOUT });
    await expect(block.getByTestId("shell-exit")).toHaveText("Exit code 0");
    await expect(block).toHaveAttribute("data-state", "done");
    await expect(block.getByRole("button", { name: "Approve" })).toHaveCount(0);
    // Collapsible: the output folds away and opens again.
    await block.getByTestId("shell-output").locator("summary").click();
    await expect(block.getByTestId("shell-output-text")).toBeHidden();
    await block.getByTestId("shell-output").locator("summary").press("Enter");
    await expect(block.getByTestId("shell-output-text")).toBeVisible();
    // The agent continued with the output (the stand-in echoes what it was given).
    await expect(chat.status).toHaveText("Ready", { timeout: TURN_TIMEOUT });
    await expect(chat.replies.last().getByTestId("message-content")).toContainText("hello");
    await expect(page.getByTestId("tool-step-summary")).toHaveText("Ran a shell command (exit code 0)");
    expect((await getTodo(u, t.id)).status).toBe("READY");
    await expectAccessibleBlock(page);
    await snap(page, info, "shell-approval-done");
    await block.scrollIntoViewIfNeeded();
    await block.screenshot({ path: info.outputPath("shell-block-done.png") });
  } finally {
    await bridge.stop();
  }
});
