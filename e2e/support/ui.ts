import type { Page, TestInfo } from "@playwright/test";
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
