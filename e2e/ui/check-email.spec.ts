import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { snap } from "../support/ui";
import { dataDirOf, firstLink, randomEmail } from "../support/users";

/** Every sign-in link mailed to `to` so far, oldest first. */
async function linksTo(dataDir: string, to: string): Promise<string[]> {
  const dir = path.join(dataDir, "outbox");
  const links: string[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".json")).sort()) {
    const mail = JSON.parse(await readFile(path.join(dir, file), "utf8")) as { to: string; subject: string; text: string };
    if (mail.to === to && mail.subject === "Sign in to Todo Service") links.push(firstLink(mail.text));
  }
  return links;
}

for (const width of [1280, 375]) {
  test(`check-email names the address, sends the link again within the limit, and the new link signs in (${width} px)`, async ({ page }, info) => {
    await page.setViewportSize({ width, height: 800 });
    const dataDir = dataDirOf(info);
    const email = randomEmail("resend");
    await page.goto("/signin?next=/settings");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    await expect(page.getByTestId("check-email-address")).toContainText(`We sent a sign-in link to ${email}`);
    await expect.poll(() => linksTo(dataDir, email).then((l) => l.length)).toBe(1);
    await snap(page, info, `check-email-${width}`);

    // Send it again: a second, different link goes out, and the page says so.
    await page.getByRole("button", { name: "Send the link again" }).click();
    await expect(page.getByTestId("resend-result")).toHaveText("A new link is on its way. Use the newest one.");
    await expect(page.getByTestId("check-email-address")).toContainText(email);
    await expect.poll(() => linksTo(dataDir, email).then((l) => l.length)).toBe(2);
    const [firstSent, secondSent] = await linksTo(dataDir, email);
    expect(secondSent).not.toBe(firstSent);
    await snap(page, info, `check-email-resent-${width}`);

    // Five links an address per 15 minutes: three more go out, the next is refused in plain words.
    for (let i = 0; i < 3; i++) {
      await page.getByRole("button", { name: "Send the link again" }).click();
      await expect.poll(() => linksTo(dataDir, email).then((l) => l.length)).toBe(3 + i);
    }
    await page.getByRole("button", { name: "Send the link again" }).click();
    await expect(page.getByTestId("resend-result")).toHaveText(/Too many links were sent to this address\. Try again in (about \d+ minutes?|\d+ seconds?)\./);
    await snap(page, info, `check-email-limited-${width}`);
    expect(await linksTo(dataDir, email)).toHaveLength(5);

    // The newest link signs in and goes where the sign-in started.
    const links = await linksTo(dataDir, email);
    await page.goto(links[links.length - 1]!);
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByTestId("signed-in-email")).toHaveText(email);
  });
}

test("check-email without a pending address says a link is on its way and leads back to sign in", async ({ page }, info) => {
  await page.goto("/signin/check-email");
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByText("A sign-in link is on its way.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send the link again" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/signin");
  await snap(page, info, "check-email-none");
});
