import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";
import { createUser, type TestUser } from "./users";

/**
 * A fresh user (signed in through the real email link, with an API key) whose session cookie is
 * put into `page`'s browser context, so a UI test starts signed in. The sign-in page itself is
 * tested through the browser in sign-in.spec.ts.
 */
export async function signedInUser(page: Page, info: TestInfo, tag = "ui"): Promise<TestUser> {
  const user = await createUser(info, tag);
  const { cookies } = await user.session.storageState();
  await page.context().addCookies(cookies);
  return user;
}

/** The first message a shared schema gives for `value`: the page must show exactly that. */
export function schemaMessage(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown): string {
  const r = schema.safeParse(value);
  if (r.success) throw new Error(`${JSON.stringify(value)} is valid`);
  return r.error!.issues[0]!.message;
}

/** Saves a full-page screenshot as a test artifact (test-results/<test>/<name>.png). */
export async function snap(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });
}

/** axe-core on the page as it is: no serious or critical WCAG 2.1 A/AA violations. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // The page's <title> comes with its metadata, a moment after its content on a navigation.
  await expect(page, `${name}: a document title`).toHaveTitle(/\S/);
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`),
    `${name}: serious or critical violations`,
  ).toEqual([]);
}
