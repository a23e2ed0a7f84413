import { expect, test } from "@playwright/test";
import { signedInUser, snap } from "../support/ui";
import { h, okJson } from "../support/todos";
import type { TestUser } from "../support/users";

// Settings → Devices: the hosted cloud device a plan includes (device_cloud, device_resyncCloud),
// which had no page; the billing page says which plan includes which.
test.describe.configure({ timeout: 90_000 });

async function subscribe(u: TestUser, tier: "pro" | "max") {
  await okJson(await u.session.post("/api/v1/billing/setup-payment-method", { headers: h(u), data: { paymentMethodId: "pm_card_visa" } }));
  await okJson(await u.session.post("/api/v1/billing/subscription", { headers: h(u), data: { tier } }));
}

test("free: which plans include one; Pro: Start boots a small device, shown once it runs; the plan cards say it too", async ({ page }, info) => {
  const u = await signedInUser(page, info, "cloud-ui");
  await page.goto("/settings/devices");
  const card = page.getByTestId("cloud-device");
  await expect(card.getByRole("heading", { name: "Cloud device" })).toBeVisible();
  await expect(card.getByTestId("cloud-none")).toContainText("Your Free plan includes no cloud device");
  await expect(card.getByTestId("cloud-none")).toContainText("Pro includes a small one (2 vCPUs, 4 GB memory, 20 GB disk) and Max includes a large one (4 vCPUs, 8 GB memory, 50 GB disk)");
  await expect(card.getByRole("button")).toHaveCount(0);

  await page.goto("/billing");
  await expect(page.getByTestId("plan-cloud")).toHaveText(["No cloud device", "A small cloud device: 2 vCPUs, 4 GB memory, 20 GB disk", "A large cloud device: 4 vCPUs, 8 GB memory, 50 GB disk"]);

  await subscribe(u, "pro");
  await page.goto("/settings/devices");
  await expect(card.getByTestId("cloud-startable")).toContainText("Your Pro plan includes a small cloud device (2 vCPUs, 4 GB memory, 20 GB disk)");
  await card.getByRole("button", { name: "Start the cloud device" }).click();
  await expect(card.getByTestId("cloud-alive")).toContainText(/online · small: 2 vCPUs, 4 GB memory, 20 GB disk · started /, { timeout: 20_000 });
  await snap(page, info, "cloud-device-running");
  // One device, as device_cloud answers it; a reload shows it at once.
  const device = await okJson<{ id: string; cloud: { tier: string } }>(await u.session.get("/api/v1/devices/cloud", { headers: h(u) }));
  expect(device.cloud.tier).toBe("pro");
  await page.reload();
  await expect(card.getByTestId("cloud-alive")).toBeVisible();
});
