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
