import { runtime } from "../../runtime.ts";

/**
 * After a device's row is deleted (device_delete, or a cloud device the plan no longer fits): its
 * tokens and open connections go, in every server process, then its user's lists hear
 * `device.deleted` (an offline device's removal publishes nothing else; an online one's closing
 * connection also makes presence publish `device.offline`).
 */
export async function deviceGone(userId: string, deviceId: string): Promise<void> {
  await runtime().bus.affect({ kind: "credential.revoked", credential: `device:${deviceId}` });
  runtime().bus.publish({ type: "device.deleted", userId, data: { deviceId } });
}
