import type { Server } from "socket.io";
import { log } from "../log.ts";
import { db } from "../runtime.ts";
import type { EventBus } from "./bus.ts";
import type { SocketData } from "./socket-data.ts";

// A device is online exactly while a Socket.IO connection authenticated with one of its dst_
// tokens is open (SPEC.md §3). The sockets themselves are the record: with the Redis adapter,
// fetchSockets asks every live process, so a process that died takes its devices with it.

const deviceRoom = (deviceId: string) => `credential:device:${deviceId}`;

/** Ids of the user's devices with an open connection, in any server process. */
export async function onlineDeviceIds(io: Server | undefined, userId: string): Promise<Set<string>> {
  if (!io) return new Set();
  const sockets = await io.in(`user:${userId}`).fetchSockets();
  return new Set(sockets.map((s) => (s.data as SocketData | undefined)?.deviceId).filter((id): id is string => !!id));
}

/** Publishes device.online on a device's first connection and device.offline when its last one closes. */
export function trackDevicePresence(io: Server, bus: EventBus): void {
  io.on("connection", (socket) => {
    const data = socket.data as SocketData | undefined;
    const deviceId = data?.deviceId;
    if (!deviceId || data.todoScope) return;
    const userId = data.userId;
    const touch = () => db().device.updateMany({ where: { id: deviceId }, data: { lastSeenAt: new Date() } }).catch(() => undefined);
    void (async () => {
      const sockets = await io.in(deviceRoom(deviceId)).fetchSockets();
      await touch();
      if (sockets.length <= 1) bus.publish({ type: "device.online", userId, data: { deviceId, online: true } });
    })().catch((err: unknown) => log.error("device presence failed", { error: String(err) }));
    socket.once("disconnect", () => {
      void (async () => {
        const left = (await io.in(deviceRoom(deviceId)).fetchSockets()).filter((s) => s.id !== socket.id);
        await touch();
        if (left.length === 0) bus.publish({ type: "device.offline", userId, data: { deviceId, online: false } });
      })().catch((err: unknown) => log.error("device presence failed", { error: String(err) }));
    });
  });
}
