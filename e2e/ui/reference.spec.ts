import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { createUser } from "../support/users";
import { snap } from "../support/ui";

// /reference is Scalar's interactive reference over the served OpenAPI document, bundled with the
// app: it must work with no request leaving this machine, find operations by search, and send a
// real request with the API key the reader pastes (the page itself is not signed in).
test.describe.configure({ timeout: 120_000 });

/** Every request the page makes to a host other than this machine. */
function offHostRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol === "data:" || url.protocol === "blob:") return;
    if (!["localhost", "127.0.0.1"].includes(url.hostname)) seen.push(r.url());
  });
  return seen;
}

test("the reference renders offline, search finds an operation, try-it-out answers 200 from the server with the pasted key", async ({ page, baseURL }, info) => {
  const u = await createUser(info, "reference");
  const offHost = offHostRequests(page);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/reference");
  const ref = page.getByTestId("api-reference");
  await expect(ref.getByRole("heading", { name: "Todo Service API" })).toBeVisible({ timeout: 30_000 });
  // The document's tags are the sidebar's groups; the API-key scheme is the one preselected.
  await expect(ref.getByRole("navigation", { name: "Sidebar for Todo Service API" }).getByRole("button", { name: /^Devices/ })).toBeVisible();
  await expect(ref.getByRole("button", { name: "Selected Auth Type: ApiKeyHeader" }).first()).toBeVisible();
  await page.screenshot({ path: info.outputPath("reference-top.png") });

  // Search by operationId, open the operation.
  await ref.getByRole("search").click();
  await page.getByRole("combobox", { name: "Enter search query" }).fill("user_profile");
  const hit = page.getByRole("listbox", { name: "Reference Search Results" }).getByRole("option", { name: /^Operation: The authenticated user's profile/ });
  await expect(hit).toBeVisible();
  await hit.click();
  const tryIt = ref.getByRole("button", { name: "Test Request (get /users/profile)" });
  await expect(tryIt).toBeVisible();
  // A code sample for the operation, with the API-key header.
  await expect(ref.getByRole("group", { name: "Request Example for get/users/profile" })).toContainText(`curl ${baseURL}/api/v1/users/profile`);
  await expect(ref.getByRole("group", { name: "Request Example for get/users/profile" })).toContainText("x-api-key");

  // Try it out: paste the key, send; the real server answers with this user's profile.
  await tryIt.click();
  const client = page.getByRole("dialog", { name: "API Client" });
  await client.getByRole("textbox", { name: "Value" }).first().fill(u.apiKey);
  const sent = page.waitForRequest((r) => r.url() === `${baseURL}/api/v1/users/profile`);
  await client.getByRole("button", { name: `Send get request to ${baseURL}/api/v1/users/profile` }).click();
  expect((await sent).headers()["x-api-key"]).toBe(u.apiKey);
  const response = client.getByRole("region", { name: "Response", exact: true });
  await expect(response.getByRole("link", { name: "200 OK" })).toBeVisible();
  await expect(response).toContainText(u.email);
  await page.screenshot({ path: info.outputPath("reference-try-it.png") });
  await snap(page, info, "reference-full");

  expect(offHost).toEqual([]);
  expect(errors).toEqual([]);
});

test("a wrong key in try-it-out shows the server's 401", async ({ page, baseURL }, info) => {
  await page.goto("/reference#tag/user/GET/users/profile");
  const ref = page.getByTestId("api-reference");
  const tryIt = ref.getByRole("button", { name: "Test Request (get /users/profile)" });
  await expect(tryIt).toBeVisible({ timeout: 30_000 });
  await tryIt.click();
  const client = page.getByRole("dialog", { name: "API Client" });
  await client.getByRole("textbox", { name: "Value" }).first().fill(`tsk_${"x".repeat(40)}`);
  await client.getByRole("button", { name: `Send get request to ${baseURL}/api/v1/users/profile` }).click();
  const response = client.getByRole("region", { name: "Response", exact: true });
  await expect(response.getByRole("link", { name: /^401/ })).toBeVisible();
  await expect(response).toContainText("UNAUTHORIZED");
  await page.screenshot({ path: info.outputPath("reference-401.png") });
});

/** The JavaScript files a page loads (same origin), with their sizes, once it has settled. */
async function scriptsOf(page: Page, path: string, ready: () => Promise<void>): Promise<Map<string, string>> {
  const scripts = new Map<string, string>();
  const pending: Promise<void>[] = [];
  const onResponse = (r: import("@playwright/test").Response) => {
    if (r.request().resourceType() === "script") pending.push(r.text().then((t) => void scripts.set(r.url(), t)).catch(() => undefined));
  };
  page.on("response", onResponse);
  await page.goto(path);
  await ready();
  await page.waitForLoadState("networkidle");
  page.off("response", onResponse);
  await Promise.all(pending);
  return scripts;
}

test("the reference's code is in chunks only /reference loads: other pages carry none of it", async ({ page }, info) => {
  const signin = await scriptsOf(page, "/signin", () => expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible());
  await page.context().clearCookies();
  const reference = await scriptsOf(page, "/reference", () => expect(page.getByTestId("api-reference").getByRole("heading", { name: "Todo Service API" })).toBeVisible({ timeout: 30_000 }));
  const isScalar = (code: string) => code.includes("scalar-app") || code.includes("createApiReference");
  expect([...reference.values()].some(isScalar)).toBe(true);
  expect([...signin.entries()].filter(([, code]) => isScalar(code)).map(([url]) => url)).toEqual([]);
  const bytes = (m: Map<string, string>) => [...m.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);
  info.annotations.push({ type: "js bytes", description: `/signin ${bytes(signin)}, /reference ${bytes(reference)} (ratio ${(bytes(reference) / bytes(signin)).toFixed(1)})` });
  console.log(`js bytes: /signin ${bytes(signin)}, /reference ${bytes(reference)}, ratio ${(bytes(reference) / bytes(signin)).toFixed(1)}`);
});

/**
 * Violations inside Scalar's own markup that no configuration of ours reaches, each left out for
 * exactly that rule and those elements (everything else, our page and Scalar's colours, which our
 * theme sets, must pass). Checked against @scalar/api-reference-react 0.8.70.
 */
const SCALAR_OWN: { rule: string; element: RegExp; why: string }[] = [
  // The sidebar's entries are buttons carrying aria-selected, which a button may not have.
  { rule: "aria-allowed-attr", element: /^<button aria-selected="(true|false)"/, why: "Scalar's sidebar items" },
  // The try-it authentication's value is a CodeMirror editor without a label (its placeholder names it).
  { rule: "aria-input-field-name", element: /^<div [^>]*class="cm-content"[^>]*role="textbox"/, why: "Scalar's CodeMirror input" },
  // The code samples' language switcher: a tablist whose children are plain buttons, not tabs.
  { rule: "aria-required-children", element: /class="client-libraries-list"/, why: "Scalar's client tabs" },
  // The sidebar's search opener (an icon and a hidden label), the code blocks' copy buttons (an icon),
  // and on a narrow screen the code samples' "more clients" menu button (an icon).
  { rule: "button-name", element: /^<button (role="search"|type="button" class="group\/copy-button|[^>]*class="client-libraries client-libraries__select")/, why: "Scalar's icon buttons" },
  // "Show more" whose name is "Show all <tag> endpoints".
  { rule: "label-content-name-mismatch", element: /^<button [^>]*class="show-more"/, why: "Scalar's show-more buttons" },
];

/** Serious or critical axe violations (WCAG 2.1 AA, as e2e/ui/a11y.spec.ts checks every page) but SCALAR_OWN's, with their elements. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !SCALAR_OWN.some((o) => o.rule === v.id && o.element.test(n.html))) }))
    .filter((v) => v.nodes.length > 0)
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html.slice(0, 120)}`).slice(0, 5).join(", ")}`);
}

for (const scheme of ["light", "dark"] as const) {
  test(`the reference has no serious or critical accessibility violations (${scheme})`, async ({ page }, info) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/reference#tag/user/GET/users/profile");
    const ref = page.getByTestId("api-reference");
    await expect(ref.getByRole("button", { name: "Test Request (get /users/profile)" })).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveTitle(/\S/);
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, info, `reference-a11y-${scheme}`);
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(ref.getByRole("button", { name: "Test Request (get /users/profile)" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: info.outputPath(`reference-a11y-${scheme}-375.png`) });
  });
}

