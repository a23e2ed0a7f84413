import type { TDevice } from "../../../lib/schemas/devices.ts";
import type { Caller } from "../../auth/caller.ts";
import { newDeviceSecret, sha256 } from "../../auth/tokens.ts";
import { db } from "../../runtime.ts";
import { toDevice } from "./serialize.ts";

// The hosted cloud device (one per user) behind a provisioner. The default, local provisioner
// "boots" a device by recording when it will be ready (CLOUD_BOOT_MS after the request); a real
// cloud provisioner is a later adapter behind the same two functions.

export type Provisioner = {
  /** Starts a machine for the user; returns when it will be ready (ms since the epoch). */
  boot(userId: string, plan: string): Promise<{ readyAt: number; plan: string }>;
};

const bootMs = () => Number(process.env.CLOUD_BOOT_MS ?? 1500);

export const localProvisioner: Provisioner = {
  async boot(_userId, plan) {
    return { readyAt: Date.now() + bootMs(), plan };
  },
};

let provisioner: Provisioner = localProvisioner;
export function setProvisioner(next: Provisioner): void {
  provisioner = next;
}

type CloudMeta = { readyAt?: number; plan?: string };

export function cloudOnline(row: { metadata: unknown }): boolean {
  const readyAt = (row.metadata as CloudMeta | null)?.readyAt;
  return typeof readyAt === "number" && readyAt <= Date.now();
}

async function cloudRow(userId: string) {
  return db().device.findFirst({ where: { userId, kind: "cloud" }, orderBy: { createdAt: "desc" } });
}

/** device_cloud: the user's cloud device once it is alive, else null. */
export async function getCloudDevice(caller: Caller): Promise<TDevice | null> {
  const row = await cloudRow(caller.userId);
  return row && cloudOnline(row) ? toDevice(row, true) : null;
}

/**
 * device_resyncCloud: reconciles the cloud device to the user's plan (the billing issue supplies
 * the plan; until then every user is on "free") and boots one if none exists. Null while booting.
 */
export async function resyncCloudDevice(caller: Caller): Promise<TDevice | null> {
  const plan = "free";
  const row = await cloudRow(caller.userId);
  if (row) {
    const meta = (row.metadata ?? {}) as CloudMeta;
    if (meta.plan !== plan) await db().device.update({ where: { id: row.id }, data: { metadata: { ...meta, plan } } });
    return cloudOnline(row) ? toDevice(row, true) : null;
  }
  const booted = await provisioner.boot(caller.userId, plan);
  // The cloud device authenticates through the provisioner, never with this secret: it is random and unknown.
  await db().device.create({
    data: { userId: caller.userId, name: "cloud", kind: "cloud", secretHash: sha256(newDeviceSecret()), metadata: booted },
  });
  return null;
}
