import { expect, test, type Page } from "@playwright/test";
import { ZApiKeyName } from "../../lib/schemas/api-keys";
import { bearer } from "../support/users";
import { schemaMessage, signedInUser, snap } from "../support/ui";

type ApiKey = { name: string; key: string; isDefault: boolean };
const FULL = /^tsk_[0-9A-Za-z]{40}$/;


function keyRow(page: Page, name: string) {
  return page.getByTestId("api-key-list").getByRole("listitem", { name: `API key ${name}`, exact: true });
}

test("create a key, see it once, copy it, use it, make it default, delete it", async ({ page, context }, info) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const user = await signedInUser(page, info, "keys");
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(keyRow(page, "e2e").getByText("Default", { exact: true })).toBeVisible();
  await expect(keyRow(page, "e2e").getByTestId("api-key-masked")).toHaveText(`tsk_••••••••${user.apiKey.slice(-4)}`);
  await snap(page, info, "api-keys-list");

  await page.getByLabel("Key name").fill("ci runner");
  await page.getByRole("button", { name: "Create key" }).click();
  const panel = page.getByTestId("new-key-panel");
  await expect(panel).toBeVisible();
  await expect(panel).toContainText("only time the full key is shown");
  const full = await panel.getByLabel("Full API key").inputValue();
  expect(full).toMatch(FULL);
  await snap(page, info, "api-keys-created");

  await panel.getByRole("button", { name: "Copy" }).click();
  await expect(panel.getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);
  await snap(page, info, "api-keys-copied");

  // The list itself only ever shows the masked form.
  const row = keyRow(page, "ci runner");
  await expect(row.getByTestId("api-key-masked")).toHaveText(`tsk_••••••••${full.slice(-4)}`);
  await expect(page.getByTestId("api-key-list")).not.toContainText(full);

  // The key is real: the API-key base answers with this user's profile (the cookie is no credential there).
  const profile = await page.request.get("/api/v1/users/profile", { headers: { "x-api-key": full } });
  expect(profile.status()).toBe(200);
  expect(((await profile.json()) as { email: string }).email).toBe(user.email);

  // After a reload only the masked form remains, nowhere in the page the full value.
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.getByTestId("new-key-panel")).toHaveCount(0);
  expect(await page.content()).not.toContain(full);
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText("Last used", { timeout: 1000 });
  }).toPass({ timeout: 10_000 });

  // Make it the default.
  await row.getByRole("button", { name: "Make default: ci runner" }).click();
  await expect(row.getByText("Default", { exact: true })).toBeVisible();
  await expect(keyRow(page, "e2e").getByText("Default", { exact: true })).toHaveCount(0);
  await expect(page.getByText("“ci runner” is now your default key.")).toBeVisible();
  await expect(page.getByTestId("no-default-key")).toHaveCount(0);
  const validate = await page.request.get("/api/v1/apikey/validate", { headers: { "x-api-key": full } });
  expect(await validate.json()).toMatchObject({ valid: true, name: "ci runner", isDefault: true });

  // Delete asks first; Cancel keeps the key working.
  await row.getByRole("button", { name: "Delete ci runner" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete API key “ci runner”?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await snap(page, info, "api-keys-delete-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  expect((await page.request.get("/api/v1/users/profile", { headers: { "x-api-key": full } })).status()).toBe(200);

  await row.getByRole("button", { name: "Delete ci runner" }).click();
  await dialog.getByRole("button", { name: "Delete key" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toHaveCount(0);
  await expect(page.getByText("Deleted “ci runner”. It no longer works.")).toBeVisible();
  expect((await page.request.get("/api/v1/users/profile", { headers: { "x-api-key": full } })).status()).toBe(401);
  const left = (await (await user.session.get("/api/v1/apikeys", { headers: bearer(user.apiKey) })).json()) as ApiKey[];
  expect(left.map((k) => k.name)).toEqual(["e2e"]);
  // The default was deleted: the page says no key is the default now.
  await expect(page.getByTestId("no-default-key")).toBeVisible();

  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "api-keys-375");
});

test("invalid names show the schema's message beside the field and create nothing", async ({ page }, info) => {
  const user = await signedInUser(page, info, "keys");
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes("/cookie/v1/apikeys")) posts.push(r.url());
  });
  await page.goto("/settings/api-keys");
  await expect(keyRow(page, "e2e")).toBeVisible();
  const name = page.getByLabel("Key name");
  const form = page.getByRole("region", { name: "Create a key" });

  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.locator("#new-key-name-error")).toHaveText(schemaMessage(ZApiKeyName, ""));
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toBeFocused();
  await snap(page, info, "api-keys-invalid-empty");

  await name.fill("x".repeat(65));
  await name.press("Enter");
  await expect(page.locator("#new-key-name-error")).toHaveText(schemaMessage(ZApiKeyName, "x".repeat(65)));
  expect(schemaMessage(ZApiKeyName, "x".repeat(65))).toBe("must be at most 64 characters");

  await name.fill("no/slashes");
  await name.press("Enter");
  await expect(page.locator("#new-key-name-error")).toHaveText(schemaMessage(ZApiKeyName, "no/slashes"));
  expect(posts).toEqual([]);

  // The server's own refusals show too: a name in use (409) as an alert.
  await name.fill("e2e");
  await name.press("Enter");
  await expect(form.getByRole("alert")).toHaveText('An API key named "e2e" already exists');
  await expect(page.getByTestId("new-key-panel")).toHaveCount(0);
  // …and the reserved name (400 with an issue at body.name) beside the field as well.
  await name.fill("default");
  await name.press("Enter");
  await expect(form.getByRole("alert")).toContainText("reserved for the default key");
  await expect(page.locator("#new-key-name-error")).toHaveText("reserved");

  const keys = (await (await user.session.get("/api/v1/apikeys", { headers: bearer(user.apiKey) })).json()) as ApiKey[];
  expect(keys.map((k) => k.name)).toEqual(["e2e"]);
});

test("no keys: the empty state, then the first key by keyboard alone becomes the default", async ({ page }, info) => {
  const user = await signedInUser(page, info, "keys");
  expect((await user.session.delete("/cookie/v1/apikeys/e2e", { data: { name: "e2e" } })).status()).toBe(200);
  await page.goto("/settings/api-keys");
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await snap(page, info, "api-keys-empty");
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "api-keys-empty-375");

  await page.getByLabel("Key name").focus();
  await page.keyboard.type("first");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("new-key-panel")).toBeVisible();
  await expect(keyRow(page, "first").getByText("Default", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Done, I have stored it" }).click();
  await expect(page.getByTestId("new-key-panel")).toHaveCount(0);
  await expect(page.getByLabel("Key name")).toBeFocused();
});

test("without clipboard access, Copy selects the key so it can be copied by hand", async ({ page }, info) => {
  await page.addInitScript(() => Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true }));
  await signedInUser(page, info, "keys");
  await page.goto("/settings/api-keys");
  await page.getByLabel("Key name").fill("manual");
  await page.getByRole("button", { name: "Create key" }).click();
  const value = page.getByLabel("Full API key");
  const full = await value.inputValue();
  expect(full).toMatch(FULL);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByTestId("new-key-panel").getByRole("status")).toHaveText(/^(Copied|Selected: press Ctrl\+C)/);
  const selection = await value.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd, document.activeElement === el]);
  expect(selection).toEqual([0, full.length, true]);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(value).toBeInViewport();
  await snap(page, info, "api-keys-created-375");
});

test("Escape closes the delete dialog and gives focus back to the key's Delete button, not to the page", async ({ page }, info) => {
  await signedInUser(page, info, "keys");
  await page.goto("/settings/api-keys");
  const del = keyRow(page, "e2e").getByRole("button", { name: "Delete e2e" });
  await del.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delete API key “e2e”?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(del).toBeFocused();
  // Cancel by keyboard too.
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(del).toBeFocused();
});

test("the list follows keys created, made default and deleted elsewhere (another tab, the CLI, the API) without a reload", async ({ page }, info) => {
  const user = await signedInUser(page, info, "keys");
  await page.goto("/settings/api-keys");
  await expect(keyRow(page, "e2e").getByText("Default", { exact: true })).toBeVisible();

  // Created with the API key, as a script or the CLI would: it appears, masked.
  const created = await user.session.post("/api/v1/apikeys", { headers: bearer(user.apiKey), data: { name: "from a script" } });
  expect(created.status(), await created.text()).toBe(200);
  const { key } = (await created.json()) as ApiKey;
  const row = keyRow(page, "from a script");
  await expect(row.getByTestId("api-key-masked")).toHaveText(`tsk_••••••••${key.slice(-4)}`);
  await expect(page.getByTestId("api-key-list")).not.toContainText(key);

  // Made the default elsewhere: the badge moves.
  expect((await user.session.put("/api/v1/apikeys/from%20a%20script/default", { headers: bearer(user.apiKey), data: { name: "from a script" } })).status()).toBe(200);
  await expect(row.getByText("Default", { exact: true })).toBeVisible();
  await expect(keyRow(page, "e2e").getByText("Default", { exact: true })).toHaveCount(0);

  // Revoked elsewhere (`todo logout` deletes its own key): it disappears.
  expect((await user.session.delete("/api/v1/apikeys/from%20a%20script", { headers: bearer(key), data: { name: "from a script" } })).status()).toBe(200);
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId("no-default-key")).toBeVisible();
  await snap(page, info, "api-keys-live");
});
