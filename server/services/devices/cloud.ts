import type { TDevice } from "../../../lib/schemas/devices.ts";
import type { Caller } from "../../auth/caller.ts";
import { newDeviceSecret, sha256 } from "../../auth/tokens.ts";
import { lockRow } from "../../db/lock.ts";
import { ApiError } from "../../http/errors.ts";
import { db } from "../../runtime.ts";
import { planOf, type CloudDeviceSize, type Plan } from "../billing/plans.ts";
import { activeTier } from "../billing/usage.ts";
import { deviceGone } from "./gone.ts";
import { toDevice, type DeviceRow } from "./serialize.ts";

// The hosted cloud device (one per user) behind a provisioner, sized by the user's plan
// (PLANS[tier].cloudDevice in server/services/billing/plans.ts: Free none, Pro small, Max large).
// The default, local provisioner "boots" a device by recording when it will be ready
// (CLOUD_BOOT_MS after the request) and stops one by forgetting it; a real cloud provisioner is a
// later adapter behind the same interface.

export type CloudSpec = CloudDeviceSize & { tier: "pro" | "max" };

export type Provisioner = {
  /** Starts a machine of `spec` for the user; returns when it will be ready (ms since the epoch). */
  boot(userId: string, spec: CloudSpec): Promise<{ readyAt: number }>;
  /** Stops and releases the user's machine `deviceId` (the device row is deleted by the caller). */
  stop(userId: string, deviceId: string): Promise<void>;
};

const bootMs = () => Number(process.env.CLOUD_BOOT_MS ?? 1500);

export const localProvisioner: Provisioner = {
  async boot() {
    return { readyAt: Date.now() + bootMs() };
  },
  async stop() {},
};

let provisioner: Provisioner = localProvisioner;
export function setProvisioner(next: Provisioner): void {
  provisioner = next;
}

/** What a cloud device row's metadata holds: when it is ready and the spec it was booted with. */
type CloudMeta = Partial<CloudSpec> & { readyAt?: number };

export function cloudOnline(row: { metadata: unknown }): boolean {
  const readyAt = (row.metadata as CloudMeta | null)?.readyAt;
  return typeof readyAt === "number" && readyAt <= Date.now();
}

/** The cloud device `plan` includes, or null when it includes none. */
export function cloudSpecOf(plan: Plan): CloudSpec | null {
  return plan.cloudDevice && plan.tier !== "free" ? { ...plan.cloudDevice, tier: plan.tier } : null;
}

/** Whether a booted device (its metadata) is what `spec` asks for. */
function fits(meta: CloudMeta, spec: CloudSpec | null): boolean {
  return spec !== null && meta.size === spec.size && meta.vcpus === spec.vcpus && meta.memoryMb === spec.memoryMb && meta.diskGb === spec.diskGb;
}

function toCloudDevice(row: DeviceRow): TDevice {
  const m = (row.metadata ?? {}) as CloudMeta;
  const device = toDevice(row, true);
  if (m.tier && m.size && m.vcpus && m.memoryMb && m.diskGb) device.cloud = { tier: m.tier, size: m.size, vcpus: m.vcpus, memoryMb: m.memoryMb, diskGb: m.diskGb };
  return device;
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["$transaction"]>[0]>[0];

async function cloudRow(tx: Tx | ReturnType<typeof db>, userId: string) {
  return tx.device.findFirst({ where: { userId, kind: "cloud" }, orderBy: { createdAt: "desc" } });
}

async function planFor(tx: Tx | ReturnType<typeof db>, userId: string): Promise<Plan> {
  return planOf(activeTier(await tx.subscription.findUnique({ where: { userId } })));
}

/** device_cloud: the user's cloud device once it is alive and still what their plan includes, else null. */
export async function getCloudDevice(caller: Caller): Promise<TDevice | null> {
  const [row, plan] = await Promise.all([cloudRow(db(), caller.userId), planFor(db(), caller.userId)]);
  if (!row || !cloudOnline(row) || !fits((row.metadata ?? {}) as CloudMeta, cloudSpecOf(plan))) return null;
  return toCloudDevice(row);
}

/**
 * device_resyncCloud: reconciles the user's cloud device to their plan, under the user's row lock
 * (concurrent calls boot one device). A plan without a cloud device stops and removes any (then
 * 402); a device of another size (the plan changed) is replaced; none: one is booted. Answers the
 * device once it is alive, null while it boots.
 */
export async function resyncCloudDevice(caller: Caller): Promise<TDevice | null> {
  const userId = caller.userId;
  const outcome = await db().$transaction(async (tx) => {
    await lockRow(tx, "User", userId);
    const plan = await planFor(tx, userId);
    const spec = cloudSpecOf(plan);
    let row = await cloudRow(tx, userId);
    const removed: string[] = [];
    if (row && !fits((row.metadata ?? {}) as CloudMeta, spec)) {
      await provisioner.stop(userId, row.id);
      await tx.device.deleteMany({ where: { userId, kind: "cloud" } });
      removed.push(row.id);
      row = null;
    }
    if (!spec) return { plan, removed, device: null };
    if (row) return { plan, removed, device: cloudOnline(row) ? toCloudDevice(row) : null };
    const { readyAt } = await provisioner.boot(userId, spec);
    // The cloud device authenticates through the provisioner, never with this secret: it is random and unknown.
    await tx.device.create({
      data: { userId, name: "cloud", kind: "cloud", secretHash: sha256(newDeviceSecret()), metadata: { ...spec, readyAt } },
    });
    return { plan, removed, device: null };
  });
  // A removed device goes as device_delete's does.
  for (const id of outcome.removed) await deviceGone(userId, id);
  if (!cloudSpecOf(outcome.plan))
    throw new ApiError("PAYMENT_REQUIRED", `The ${outcome.plan.name} plan includes no cloud device: subscribe to Pro or Max (billing_createSubscription)`, { tier: outcome.plan.tier });
  return outcome.device;
}
