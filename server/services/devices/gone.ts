import { runtime } from "../../runtime.ts";

/**
 * After a device's row is deleted (device_delete, or a cloud device the plan no longer fits): its
 * tokens and open connections go, in every server process, then its user's lists hear
 * `device.deleted` (an offline device's removal publishes nothing else; an online one's closing
 * connection also makes presence publish `device.offline`).
 */
export async function deviceGone(userId: string, deviceId: string): Promise<void> {
  await runtime().bus.affect({ kind: "credential.revoked", credential: `device:${deviceId}` });
  publishDevice("device.deleted", userId, deviceId);
}

/**
 * Tells the user's own connections (after the commit) that a device of theirs was enrolled
 * (`device.created`: a bridge login, enroll-self), changed (`device.updated`: its workspace paths)
 * or deleted, so another open devices list follows. The data is the id alone: a list reads again.
 */
export function publishDevice(type: "device.created" | "device.updated" | "device.deleted", userId: string, deviceId: string): void {
  runtime().bus.publish({ type, userId, data: { deviceId } });
}
