import type { Server } from "socket.io";
import { log } from "../log.ts";
import { db } from "../runtime.ts";
import type { EventBus } from "./bus.ts";
import type { SocketData } from "./socket-data.ts";

// A device is online exactly while a Socket.IO connection authenticated with one of its dst_
// tokens is open (SPEC.md §3). The sockets themselves are the record: with the Redis adapter,
// fetchSockets asks every live process, so a process that died takes its devices with it.
// Events: device.online on a device's first connection, device.offline when its last closes.
// A process that crashes sends no offline events for its devices, so every process also keeps
// the set of devices announced online (in Redis with REDIS_URL) and sweeps it every few seconds:
// an announced device without a connection anywhere is taken out of the set, and whoever takes it
// out (one process: HDEL answers 1 once) publishes its device.offline.

export const PRESENCE_SWEEP_MS = 3000;

const deviceRoom = (deviceId: string) => `credential:device:${deviceId}`;

/** Ids of the user's devices with an open connection, in any server process. */
export async function onlineDeviceIds(io: Server | undefined, userId: string): Promise<Set<string>> {
  if (!io) return new Set();
  const sockets = await io.in(`user:${userId}`).fetchSockets();
  return new Set(sockets.map((s) => (s.data as SocketData | undefined)?.deviceId).filter((id): id is string => !!id));
}

/** The devices announced online: deviceId → userId. */
export type PresenceStore = {
  /** True when the device was not announced yet. */
  add(deviceId: string, userId: string): Promise<boolean>;
  /** True for the one caller that took it out. */
  remove(deviceId: string): Promise<boolean>;
  all(): Promise<[string, string][]>;
};

export function memoryPresence(): PresenceStore {
  const map = new Map<string, string>();
  return {
    async add(deviceId, userId) {
      if (map.has(deviceId)) return false;
      map.set(deviceId, userId);
      return true;
    },
    async remove(deviceId) {
      return map.delete(deviceId);
    },
    async all() {
      return [...map.entries()];
    },
  };
}

type RedisLike = {
  hSetNX(key: string, field: string, value: string): Promise<number | boolean>;
  hDel(key: string, field: string): Promise<number>;
  hGetAll(key: string): Promise<Record<string, string>>;
};

export function redisPresence(client: RedisLike, prefix: string): PresenceStore {
  const key = `${prefix}:presence:devices`;
  return {
    async add(deviceId, userId) {
      return Number(await client.hSetNX(key, deviceId, userId)) === 1;
    },
    async remove(deviceId) {
      return (await client.hDel(key, deviceId)) === 1;
    },
    async all() {
      return Object.entries(await client.hGetAll(key));
    },
  };
}

/** Publishes device.online / device.offline and sweeps for devices of processes that died. Returns the stop function. */
export function trackDevicePresence(io: Server, bus: EventBus, store: PresenceStore = memoryPresence(), sweepMs = PRESENCE_SWEEP_MS): () => void {
  const touch = (deviceId: string) => db().device.updateMany({ where: { id: deviceId }, data: { lastSeenAt: new Date() } }).catch(() => undefined);
  const failed = (err: unknown) => log.error("device presence failed", { error: String(err) });
  const connections = async (deviceId: string, except?: string) => (await io.in(deviceRoom(deviceId)).fetchSockets()).filter((s) => s.id !== except).length;

  async function goneOffline(deviceId: string, userId: string) {
    if (!(await store.remove(deviceId))) return;
    // It may have come back between the look and the removal: then it is still (again) online.
    if ((await connections(deviceId)) > 0) {
      await store.add(deviceId, userId);
      return;
    }
    await touch(deviceId);
    bus.publish({ type: "device.offline", userId, data: { deviceId, online: false } });
  }

  io.on("connection", (socket) => {
    const data = socket.data as SocketData | undefined;
    const deviceId = data?.deviceId;
    const userId = data?.userId;
    if (!deviceId || data.todoScope || !userId) return;
    void (async () => {
      await touch(deviceId);
      if (await store.add(deviceId, userId)) bus.publish({ type: "device.online", userId, data: { deviceId, online: true } });
    })().catch(failed);
    socket.once("disconnect", () => {
      void (async () => {
        if ((await connections(deviceId, socket.id)) === 0) await goneOffline(deviceId, userId);
      })().catch(failed);
    });
  });

  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void (async () => {
      for (const [deviceId, userId] of await store.all()) if ((await connections(deviceId)) === 0) await goneOffline(deviceId, userId);
    })()
      .catch(failed)
      .finally(() => {
        sweeping = false;
      });
  }, sweepMs);
  timer.unref();
  return () => clearInterval(timer);
}
