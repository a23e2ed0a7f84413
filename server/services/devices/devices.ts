import type { TDevice } from "../../../lib/schemas/devices.ts";
import type { Caller } from "../../auth/caller.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { onlineDeviceIds } from "../../realtime/presence.ts";
import { db, runtime } from "../../runtime.ts";
import { deviceGone, publishDevice } from "./gone.ts";
import { normaliseWorkspacePaths } from "./workspace-paths.ts";
import { cloudOnline } from "./cloud.ts";
import { toDevice } from "./serialize.ts";

export { toDevice } from "./serialize.ts";

/** A device of the caller's, or 404 (another user's device is not revealed). */
export async function getDeviceOrThrow(caller: Caller, id: string) {
  const row = await db().device.findUnique({ where: { id } });
  if (!row || row.userId !== caller.userId) throw notFound("Device");
  return row;
}

/** device_list: the caller's bridge-backed machines, oldest first. */
export async function listDevices(caller: Caller): Promise<TDevice[]> {
  const [rows, online] = await Promise.all([
    db().device.findMany({ where: { userId: caller.userId, kind: "bridge" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    onlineDeviceIds(runtime().io, caller.userId),
  ]);
  return rows.map((r) => toDevice(r, online.has(r.id)));
}

/** device_delete: the device, its secret and every token go at once; its connections close before the answer. */
export async function deleteDevice(caller: Caller, id: string): Promise<null> {
  await getDeviceOrThrow(caller, id);
  const { count } = await db().device.deleteMany({ where: { id, userId: caller.userId } });
  if (count === 0) throw notFound("Device");
  await deviceGone(caller.userId, id);
  return null;
}

/** device_setWorkspacePaths: replaces the list in one write. A device token may set its own device's only. */
export async function setWorkspacePaths(caller: Caller, id: string, paths: string[]): Promise<TDevice> {
  if (caller.credential === "device" && caller.deviceId !== id) {
    await getDeviceOrThrow(caller, id);
    throw new ApiError("FORBIDDEN", "A device token may set its own device's workspace paths only");
  }
  const normal = normaliseWorkspacePaths(paths);
  await getDeviceOrThrow(caller, id);
  const { count } = await db().device.updateMany({ where: { id, userId: caller.userId }, data: { workspacePaths: normal } });
  if (count === 0) throw notFound("Device");
  publishDevice("device.updated", caller.userId, id);
  const row = await getDeviceOrThrow(caller, id);
  const online = row.kind === "cloud" ? cloudOnline(row) : (await onlineDeviceIds(runtime().io, caller.userId)).has(id);
  return toDevice(row, online);
}
