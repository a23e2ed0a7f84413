import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { connect } from "../support/sockets";
import { expectAccessible, schemaMessage, signedInUser, snap } from "../support/ui";
import { ZName } from "../../lib/schemas/common";
import { bearer, dataDirOf, firstLink, randomEmail, readOutbox } from "../support/users";

// Issue 14: the approval page (signed out → sign in → back on the page → approve → the waiting
// CLI completes) and the devices page (a bridge shows online, then offline, live).

test("approval page: sign in from it, come back, approve; the waiting `todo login` completes; the devices page follows a bridge live", async ({ page, baseURL }, info) => {
  test.setTimeout(120_000);
  const email = randomEmail("approve");
  const dir = await mkdtemp(path.join(tmpdir(), "todo-ui-"));
  const child = spawn(process.execPath, [path.resolve("cli/todo.mjs"), "login", "--name", "ui-box"], {
    env: { ...process.env, TODO_NO_BROWSER: "1", TODO_SERVER: baseURL!, TODO_CONFIG_DIR: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        const m = stderr.match(/Open (\S+)/);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`todo login exited: ${stderr}`)));
    });
    const userCode = new URL(url).searchParams.get("code")!;

    await page.goto(url);
    await expect(page).toHaveURL(/\/signin\?next=/);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.goto(firstLink((await readOutbox(dataDirOf(info), email)).text));
    await expect(page).toHaveURL(new RegExp(`/device\\?code=${userCode}`));
    const approval = page.getByTestId("device-approval");
    await expect(approval).toContainText("The todo command-line tool (“ui-box”)");
    await expect(approval).toContainText(email);
    await expect(page.getByTestId("user-code")).toHaveText(userCode);
    await page.screenshot({ path: info.outputPath("device-approval.png"), fullPage: true });
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(approval.getByRole("status")).toHaveText("Approved. You can return to your terminal.");

    expect(await exited, stderr).toBe(0);
    expect(stdout).toContain(`as ${email}`);

    // Reloading the page shows the code as used, with no buttons.
    await page.reload();
    await expect(approval.getByRole("status")).toHaveText("This code was already used.");
    await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);

    // The devices page: a bridge connects and disconnects; the page follows without a reload.
    const enrolled = await page.request.post("/cookie/v1/cli/device/enroll-self", { data: { name: "lab-box" }, headers: { origin: baseURL! } });
    expect(enrolled.status(), await enrolled.text()).toBe(200);
    const { apiToken } = (await enrolled.json()) as { apiToken: string };
    await page.goto("/settings/devices");
    const device = page.getByTestId("device").filter({ hasText: "lab-box" });
    await expect(device).toHaveAttribute("data-online", "false");
    const bridge = await connect(baseURL!, { token: apiToken });
    await expect(device).toHaveAttribute("data-online", "true");
    await expect(device).toContainText("online");
    await page.screenshot({ path: info.outputPath("devices-online.png"), fullPage: true });
    bridge.disconnect();
    await expect(device).toHaveAttribute("data-online", "false");
  } finally {
    child.kill("SIGKILL");
  }
});

test("each device's Remove button names its device, and removing one leaves the other", async ({ page, baseURL }, info) => {
  await signedInUser(page, info, "devices");
  for (const name of ["lab-box", "home-box"]) {
    const enrolled = await page.request.post("/cookie/v1/cli/device/enroll-self", { data: { name }, headers: { origin: baseURL! } });
    expect(enrolled.status(), await enrolled.text()).toBe(200);
  }
  await page.goto("/settings/devices");
  await expect(page.getByTestId("device")).toHaveCount(2);
  // A screen reader listing the page's buttons hears which device each one removes.
  await expect(page.getByRole("button", { name: "Remove lab-box", exact: true })).toHaveCount(1);
  const removeHome = page.getByRole("button", { name: "Remove home-box", exact: true });
  await expect(removeHome).toHaveCount(1);
  // A modal asks first: Escape keeps the device and returns focus; Remove removes it.
  await removeHome.click();
  const dialog = page.getByRole("dialog", { name: "Remove “home-box”?" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(removeHome).toBeFocused();
  await expect(page.getByTestId("device")).toHaveCount(2);
  await removeHome.click();
  await dialog.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("device")).toHaveCount(1);
  await expect(page.getByTestId("device")).toContainText("lab-box");
});

test("a device removed elsewhere while it is offline leaves the list without a reload", async ({ page, baseURL }, info) => {
  const user = await signedInUser(page, info, "devices");
  const ids: Record<string, string> = {};
  for (const name of ["lab-box", "home-box"]) {
    const enrolled = await page.request.post("/cookie/v1/cli/device/enroll-self", { data: { name }, headers: { origin: baseURL! } });
    expect(enrolled.status(), await enrolled.text()).toBe(200);
    ids[name] = ((await enrolled.json()) as { device: { id: string } }).device.id;
  }
  await page.goto("/settings/devices");
  await expect(page.getByTestId("device")).toHaveCount(2);
  await expect(page.getByTestId("device").filter({ hasText: "home-box" })).toHaveAttribute("data-online", "false");
  // Removed in another session (another tab, or a script with the API key): no bridge was connected.
  const removed = await user.session.delete(`/api/v1/devices/${ids["home-box"]}`, { headers: bearer(user.apiKey), data: { id: ids["home-box"] } });
  expect(removed.status(), await removed.text()).toBe(200);
  await expect(page.getByTestId("device")).toHaveCount(1);
  await expect(page.getByTestId("device")).toContainText("lab-box");
});

test("an edge is renamed in place: the schema's message for an empty name, Escape cancels, Save renames; a rename elsewhere shows live", async ({ page, request }, info) => {
  const user = await signedInUser(page, info, "edges");
  // An edge login (`todo edge`), approved by the user: the edge "pi".
  const init = (await (await request.post("/api/v1/cli/login/init", { data: { clientName: "edge", name: "pi" } })).json()) as { userCode: string };
  expect((await user.session.post("/cookie/v1/cli/login/approve", { data: { userCode: init.userCode } })).status()).toBe(200);
  const [edge] = (await (await user.session.get("/api/v1/edges", { headers: bearer(user.apiKey) })).json()) as { id: string; name: string }[];
  expect(edge?.name).toBe("pi");

  await page.goto("/settings/devices");
  const item = page.getByTestId("edge");
  await expect(item.getByTestId("edge-name")).toHaveText("pi");
  const rename = page.getByRole("button", { name: "Rename pi", exact: true });
  await rename.click();
  const box = page.getByRole("textbox", { name: "Edge name" });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("pi");

  // Escape: nothing changes, focus back on Rename.
  await box.fill("changed my mind");
  await box.press("Escape");
  await expect(box).toHaveCount(0);
  await expect(rename).toBeFocused();
  await expect(item.getByTestId("edge-name")).toHaveText("pi");

  // An empty name: the schema's own message, nothing sent.
  await rename.click();
  await box.fill("   ");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(item.getByRole("alert")).toHaveText(`Name ${schemaMessage(ZName, "   ")}`);
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await snap(page, info, "edge-rename-error");

  await box.fill("garage pi");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(item.getByTestId("edge-name")).toHaveText("garage pi");
  await expect(page.getByRole("button", { name: "Rename garage pi", exact: true })).toBeFocused();
  const stored = (await (await user.session.get(`/api/v1/edges/${edge!.id}`, { headers: bearer(user.apiKey) })).json()) as { name: string };
  expect(stored.name).toBe("garage pi");

  // Renamed elsewhere (the CLI, a script, another tab): edge.updated brings it without a reload.
  const patched = await user.session.patch(`/api/v1/edges/${edge!.id}`, { headers: bearer(user.apiKey), data: { name: "attic pi" } });
  expect(patched.status(), await patched.text()).toBe(200);
  await expect(item.getByTestId("edge-name")).toHaveText("attic pi");
  await expectAccessible(page, "devices with an edge");
});

test("a device enrolled elsewhere, and a change of its workspace paths, show in an open devices page without a reload", async ({ page }, info) => {
  const user = await signedInUser(page, info, "devices");
  // The page's live connection is up (Socket.IO's CONNECT answer) before anything changes elsewhere.
  const connected = new Promise<void>((resolve) => page.on("websocket", (ws) => ws.on("framereceived", (f) => void (String(f.payload).startsWith("40") && resolve()))));
  await page.goto("/settings/devices");
  await expect(page.getByText("No devices yet.")).toBeVisible();
  await connected;
  // Enrolled by a script with the user's API key (a bridge on another machine, another tab).
  const enroll = async (name: string) => {
    const res = await user.session.post("/api/v1/cli/device/enroll-self", { headers: bearer(user.apiKey), data: { name } });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { device: { id: string } }).device.id;
  };
  const id = await enroll("new-box");
  const device = page.getByTestId("device").filter({ hasText: "new-box" });
  await expect(device).toHaveCount(1);
  // Its workspace paths set elsewhere (the bridge itself does this with its device token).
  const set = await user.session.put(`/api/v1/devices/${id}/workspacepaths`, { headers: bearer(user.apiKey), data: ["/home/me/garden"] });
  expect(set.status(), await set.text()).toBe(200);
  await expect(device).toContainText("/home/me/garden");
  // And one more, long after the page's first reads.
  await enroll("other-box");
  await expect(page.getByTestId("device")).toHaveCount(2);
  await page.screenshot({ path: info.outputPath("devices-live-enrol.png"), fullPage: true });
});
