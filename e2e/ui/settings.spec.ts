import { expect, test, type Page } from "@playwright/test";
import { ZAgentSettings } from "../../lib/schemas/agent";
import { ZTimezone } from "../../lib/schemas/settings";
import { bearer, createUser, type TestUser } from "../support/users";
import { createProject as createProjectOf } from "../support/todos";
import { schemaMessage, signedInUser, snap } from "../support/ui";

type AppSettings = { theme: string; timezone: string; locale: string; emailNotifications: boolean; defaultAgent: Record<string, unknown> | null };
type ProjectSettings = { defaultGroupSlug: string | null; brandMarkdown: string; agentDefaults: Record<string, unknown> | null; agentSettings: Record<string, unknown> | null };

async function createProject(u: TestUser, name: string): Promise<string> {
  return (await createProjectOf(u, name)).id;
}

async function userSettings(u: TestUser): Promise<AppSettings> {
  const res = await u.session.get("/api/v1/settings/user", { headers: bearer(u.apiKey) });
  expect(res.status()).toBe(200);
  return (await res.json()) as AppSettings;
}

function region(page: Page, name: string) {
  return page.getByRole("region", { name, exact: true });
}

test("preferences: change, see them after a reload and through the API; bad values show the schema's message", async ({ page }, info) => {
  const user = await signedInUser(page, info, "settings");
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByTestId("profile-email")).toHaveText(user.email);
  const prefs = region(page, "Preferences");
  await expect(prefs.getByLabel("Time zone")).toHaveValue("UTC");
  await snap(page, info, "settings");

  await prefs.getByLabel("Theme").selectOption("dark");
  await prefs.getByLabel("Time zone").fill("europe/berlin");
  await prefs.getByLabel("Language and region").fill("de-ch");
  await prefs.getByLabel("Email notifications").uncheck();
  await prefs.getByLabel("Provider").selectOption("openai");
  await prefs.getByLabel("Model").fill("gpt-4.1-nano");
  await prefs.getByLabel("Temperature").fill("0.7");
  await prefs.getByRole("button", { name: "Save preferences" }).click();
  await expect(prefs.getByRole("status")).toHaveText("Saved");
  // The page shows what was stored: the canonical spellings.
  await expect(prefs.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
  await expect(prefs.getByLabel("Language and region")).toHaveValue("de-CH");
  await snap(page, info, "settings-saved");

  await page.reload();
  await expect(prefs.getByLabel("Theme")).toHaveValue("dark");
  await expect(prefs.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
  await expect(prefs.getByLabel("Language and region")).toHaveValue("de-CH");
  await expect(prefs.getByLabel("Email notifications")).not.toBeChecked();
  await expect(prefs.getByLabel("Provider")).toHaveValue("openai");
  await expect(prefs.getByLabel("Model")).toHaveValue("gpt-4.1-nano");
  await expect(prefs.getByLabel("Temperature")).toHaveValue("0.7");
  expect(await userSettings(user)).toMatchObject({
    theme: "dark",
    timezone: "Europe/Berlin",
    locale: "de-CH",
    emailNotifications: false,
    defaultAgent: { provider: "openai", model: "gpt-4.1-nano", temperature: 0.7 },
  });

  // Invalid values: the shared schema's messages beside the fields, nothing sent, nothing changed.
  await prefs.getByLabel("Time zone").fill("Mars/Olympus_Mons");
  await prefs.getByLabel("Temperature").fill("5");
  await prefs.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.locator("#pref-timezone-error")).toHaveText(schemaMessage(ZTimezone, "Mars/Olympus_Mons"));
  await expect(page.locator("#pref-agent-temperature-error")).toHaveText(schemaMessage(ZAgentSettings.shape.temperature, 5));
  await expect(prefs.getByLabel("Time zone")).toHaveAttribute("aria-invalid", "true");
  await expect(prefs.getByLabel("Time zone")).toBeFocused();
  await expect(prefs.getByRole("status")).toHaveText("");
  await snap(page, info, "settings-invalid");
  expect(await userSettings(user)).toMatchObject({ timezone: "Europe/Berlin", defaultAgent: { temperature: 0.7 } });

  // Clearing every agent field clears the default agent.
  await prefs.getByLabel("Time zone").fill("UTC");
  await prefs.getByLabel("Provider").selectOption("");
  await prefs.getByLabel("Model").fill("");
  await prefs.getByLabel("Temperature").fill("");
  await prefs.getByRole("button", { name: "Save preferences" }).click();
  await expect(prefs.getByRole("status")).toHaveText("Saved");
  expect(await userSettings(user)).toMatchObject({ timezone: "UTC", defaultAgent: null });

  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "settings-375");
});

test("default project: pick one, it persists; without projects the section says so", async ({ page }, info) => {
  const user = await signedInUser(page, info, "settings");
  await page.goto("/settings");
  await expect(page.getByTestId("no-projects")).toContainText("No projects yet");

  await createProject(user, "First");
  const second = await createProject(user, "Second");
  await page.reload();
  const section = region(page, "Default project");
  const select = section.getByLabel("Project");
  await expect(select).toHaveValue("");
  await select.selectOption({ label: "Second" });
  await section.getByRole("button", { name: "Save default project" }).click();
  await expect(section.getByRole("status")).toHaveText("Saved");

  await page.reload();
  await expect(select).toHaveValue(second);
  const profile = (await (await user.session.get("/api/v1/users/profile", { headers: bearer(user.apiKey) })).json()) as { defaultProjectId: string | null };
  expect(profile.defaultProjectId).toBe(second);
  await snap(page, info, "settings-default-project");
});

test("billing information: saved in canonical form, bad values refused beside their fields", async ({ page }, info) => {
  await signedInUser(page, info, "settings");
  await page.goto("/settings");
  const billing = region(page, "Billing information");
  await billing.getByRole("button", { name: "Save billing information" }).click();
  await expect(page.locator("#billing-name-error")).toHaveText("must not be empty");
  await expect(page.locator("#billing-country-error")).toBeVisible();

  await billing.getByLabel("Name on invoices").fill("Ada GmbH");
  await billing.getByLabel("Address line 1").fill("Hauptstraße 1");
  await billing.getByLabel("City").fill("Berlin");
  await billing.getByLabel("Postal code").fill("10115");
  await billing.getByLabel("Country code").fill("zz");
  await expect(billing.getByLabel("Country code")).toHaveValue("ZZ");
  await billing.getByLabel("Tax id type").selectOption("eu_vat");
  await billing.getByLabel("Tax id", { exact: true }).fill("12345");
  await billing.getByRole("button", { name: "Save billing information" }).click();
  await expect(page.locator("#billing-country-error")).toHaveText("is not an ISO 3166-1 alpha-2 country code");
  await expect(page.locator("#billing-tax-value-error")).toContainText("must be an EU VAT number");
  await expect(billing.getByRole("status")).toHaveText("");

  await billing.getByLabel("Country code").fill("de");
  await billing.getByLabel("Tax id", { exact: true }).fill("de 123.456.789");
  await billing.getByRole("button", { name: "Save billing information" }).click();
  await expect(billing.getByRole("status")).toHaveText("Saved");
  await expect(billing.getByLabel("Tax id", { exact: true })).toHaveValue("DE123456789");
  await snap(page, info, "settings-billing");
});

test("project settings: save shared settings and my agent mapping, both persist", async ({ page }, info) => {
  const user = await signedInUser(page, info, "settings");
  const projectId = await createProject(user, "Configured");
  const group = await user.session.put(`/api/v1/projects/${projectId}/groups/backlog`, { headers: bearer(user.apiKey), data: { name: "Backlog" } });
  expect(group.status()).toBe(200);

  await page.goto(`/projects/${projectId}/settings`);
  await expect(page.getByRole("heading", { level: 1, name: /Settings: Configured/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "← Back to Configured" })).toHaveAttribute("href", `/projects/${projectId}`);
  await snap(page, info, "project-settings");

  const shared = region(page, "Project settings");
  await shared.getByLabel("Default group").selectOption({ label: "Backlog" });
  await shared.getByLabel("Provider").selectOption("local");
  await shared.getByLabel("Model").fill("gpt-4.1-mini");
  await shared.getByLabel("Brand page (Markdown)").fill("# Configured\n\nOur brand.");
  await shared.getByRole("button", { name: "Save project settings" }).click();
  await expect(shared.getByRole("status")).toHaveText("Saved");

  const mine = region(page, "My agent for this project");
  await mine.getByLabel("Max tokens").fill("0");
  await mine.getByRole("button", { name: "Save my agent settings" }).click();
  await expect(page.locator("#my-agent-maxTokens-error")).toHaveText(schemaMessage(ZAgentSettings.shape.maxTokens, 0));
  await expect(mine.getByRole("status")).toHaveText("");
  await mine.getByLabel("Max tokens").fill("4000");
  await mine.getByLabel("Model").fill("gpt-4.1-nano");
  await mine.getByRole("button", { name: "Save my agent settings" }).click();
  await expect(mine.getByRole("status")).toHaveText("Saved");

  await page.reload();
  await expect(shared.getByLabel("Default group")).toHaveValue("backlog");
  await expect(shared.getByLabel("Model")).toHaveValue("gpt-4.1-mini");
  await expect(shared.getByLabel("Brand page (Markdown)")).toHaveValue("# Configured\n\nOur brand.");
  await expect(mine.getByLabel("Model")).toHaveValue("gpt-4.1-nano");
  await expect(mine.getByLabel("Max tokens")).toHaveValue("4000");
  const res = await user.session.get(`/api/v1/settings/projects/${projectId}`, { headers: bearer(user.apiKey) });
  expect((await res.json()) as ProjectSettings).toMatchObject({
    defaultGroupSlug: "backlog",
    brandMarkdown: "# Configured\n\nOur brand.",
    agentDefaults: { provider: "local", model: "gpt-4.1-mini" },
    agentSettings: { model: "gpt-4.1-nano", maxTokens: 4000 },
  });
  await snap(page, info, "project-settings-saved");
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "project-settings-375");
});

test("a viewer sees the shared settings read-only but keeps their own agent settings", async ({ page }, info) => {
  const viewer = await signedInUser(page, info, "viewer");
  const owner = await createUser(info, "owner");
  const projectId = await createProject(owner, "Shared");
  const share = await owner.session.post(`/api/v1/projects/${projectId}/share`, { headers: bearer(owner.apiKey), data: { email: viewer.email, role: "viewer" } });
  expect(share.status(), await share.text()).toBe(200);

  await page.goto(`/projects/${projectId}/settings`);
  const shared = region(page, "Project settings");
  await expect(shared).toContainText("only the owner and editors can change them");
  await expect(shared.getByLabel("Model")).toBeDisabled();
  await expect(shared.getByRole("button", { name: "Save project settings" })).toHaveCount(0);
  const mine = region(page, "My agent for this project");
  await mine.getByLabel("Model").fill("o4-mini");
  await mine.getByRole("button", { name: "Save my agent settings" }).click();
  await expect(mine.getByRole("status")).toHaveText("Saved");
  const res = await viewer.session.get(`/api/v1/settings/projects/${projectId}`, { headers: bearer(viewer.apiKey) });
  expect(((await res.json()) as ProjectSettings).agentSettings).toEqual({ model: "o4-mini" });
});

test("an editor changes the shared settings but not the agent defaults, which are the owner's", async ({ page }, info) => {
  const editor = await signedInUser(page, info, "editor");
  const owner = await createUser(info, "owner");
  const projectId = await createProject(owner, "Shared");
  const share = await owner.session.post(`/api/v1/projects/${projectId}/share`, { headers: bearer(owner.apiKey), data: { email: editor.email, role: "editor" } });
  expect(share.status(), await share.text()).toBe(200);
  const set = await owner.session.put(`/api/v1/settings/projects/${projectId}`, { headers: bearer(owner.apiKey), data: { agentDefaults: { model: "gpt-4.1-mini" } } });
  expect(set.status(), await set.text()).toBe(200);

  await page.goto(`/projects/${projectId}/settings`);
  const shared = region(page, "Project settings");
  await expect(shared.getByTestId("agent-defaults-owner-only")).toContainText("Only the project's owner can change the agent defaults");
  await expect(shared.getByLabel("Model")).toBeDisabled();
  await expect(shared.getByLabel("Model")).toHaveValue("gpt-4.1-mini");
  await shared.getByLabel("Brand page (Markdown)").fill("# From the editor");
  await shared.getByRole("button", { name: "Save project settings" }).click();
  await expect(shared.getByRole("status")).toHaveText("Saved");
  const res = await owner.session.get(`/api/v1/settings/projects/${projectId}`, { headers: bearer(owner.apiKey) });
  expect((await res.json()) as ProjectSettings).toMatchObject({ brandMarkdown: "# From the editor", agentDefaults: { model: "gpt-4.1-mini" } });
  await snap(page, info, "project-settings-editor");
});

test("a stranger's project, or one that does not exist, shows Project not found", async ({ page }, info) => {
  const owner = await createUser(info, "owner");
  const projectId = await createProject(owner, "Private");
  await signedInUser(page, info, "stranger");

  await page.goto(`/projects/${projectId}/settings`);
  await expect(page.getByRole("heading", { level: 1, name: "Project not found" })).toBeVisible();
  await expect(page.getByText("Private")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to your projects" })).toHaveAttribute("href", "/");
  await snap(page, info, "project-settings-not-found");

  await page.goto("/projects/does-not-exist/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Project not found" })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, info, "project-settings-not-found-375");
});

test("the name is editable in place and reads back after a reload", async ({ page }, info) => {
  await signedInUser(page, info);
  await page.goto("/settings");
  const name = page.getByTestId("profile-name");
  await expect(name).toBeVisible();
  await page.getByRole("button", { name: /Add your name|Change/ }).click();
  await page.getByRole("form", { name: "Your name" }).getByLabel("Name").fill("Grace Hopper");
  await page.getByRole("form", { name: "Your name" }).getByRole("button", { name: "Save" }).click();
  await expect(name).toHaveText("Grace Hopper");
  await snap(page, info, "settings-name");
  await page.reload();
  await expect(page.getByTestId("profile-name")).toHaveText("Grace Hopper");
});
