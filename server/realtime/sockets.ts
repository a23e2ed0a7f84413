import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import { resolveHandshake } from "../auth/resolve.ts";
import { ApiError } from "../http/errors.ts";
import { log } from "../log.ts";
import { limitHandshakes } from "./handshake-limit.ts";
import type { RateLimits } from "../http/rate-limit.ts";
import { envelopeOf, roomsFor, type EventBus, type Room } from "./bus.ts";

export type SocketData = { userId: string; credential: string; deviceId?: string | null; todoScope?: string | null };

/** Socket.IO on the HTTP server's port, authenticated like HTTP, fed by the event bus. */
export async function attachSockets(httpServer: HttpServer, bus: EventBus, redisUrl?: string, redisPrefix = "todo-service", limits?: RateLimits): Promise<{ io: Server; close(): Promise<void> }> {
  const io = new Server(httpServer, { path: "/socket.io", serveClient: false });
  const closers: (() => Promise<unknown>)[] = [];

  if (redisUrl) {
    const [{ createAdapter }, { createClient }] = await Promise.all([import("@socket.io/redis-adapter"), import("redis")]);
    const pub = createClient({ url: redisUrl });
    const sub = pub.duplicate();
    pub.on("error", (err) => log.error("redis (pub) error", { error: String(err) }));
    sub.on("error", (err) => log.error("redis (sub) error", { error: String(err) }));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub, { key: `${redisPrefix}:socket.io` }));
    closers.push(() => pub.quit(), () => sub.quit());
    log.info("socket.io redis adapter on");
  }

  if (limits) io.use(limitHandshakes(limits));
  io.use((socket, next) => {
    const { auth, headers } = socket.handshake;
    resolveHandshake((auth as { token?: unknown } | undefined)?.token, headers.cookie)
      .then((caller) => {
        if (!caller) {
          const err = new Error("Missing, invalid or expired credential") as Error & { data?: unknown };
          err.data = { code: "UNAUTHORIZED" };
          return next(err);
        }
        const data: SocketData = { userId: caller.userId, credential: caller.credential, deviceId: caller.deviceId, todoScope: caller.todoScope };
        socket.data = data;
        // A todo-scoped token hears its todo only (todo_subscribe), not the account's events.
        if (!caller.todoScope) void socket.join(`user:${caller.userId}` satisfies Room);
        next();
      })
      .catch((err) => {
        log.error("socket auth failed", { error: String(err) });
        next(new Error("Internal server error"));
      });
  });

  const unsubscribe = bus.subscribe((event) => {
    // message.delta is high-volume and only meaningful to viewers of that todo.
    const rooms = event.type === "message.delta" && event.todoId ? [`todo:${event.todoId}`] : roomsFor(event);
    if (rooms.length) io.to(rooms).emit(event.type, envelopeOf(event));
  });

  return {
    io,
    async close() {
      unsubscribe();
      // Not io.close(): that would also close the HTTP server, cutting requests still in flight.
      io.local.disconnectSockets(true);
      io.engine.close();
      await Promise.allSettled(closers.map((c) => c()));
    },
  };
}

/**
 * Joins the caller's own connection to a room (the subscribe operations). The connection may live
 * on another server process: with the Redis adapter, fetchSockets and socketsJoin cross processes.
 */
export async function joinRoom(io: Server | undefined, socketId: string | undefined, userId: string, room: Room): Promise<void> {
  if (!socketId)
    throw new ApiError("BAD_REQUEST", "X-Socket-Id header (or socketId body field) is required to subscribe", {
      issues: [{ path: "header.x-socket-id", message: "required", code: "invalid_type" }],
    });
  if (!io) throw new ApiError("CONFLICT", "Real-time updates are not available in this process");
  if (socketId.length > 64) throw new ApiError("BAD_REQUEST", "X-Socket-Id is not a socket id");
  const local = io.sockets.sockets.get(socketId);
  if (local) {
    if ((local.data as SocketData | undefined)?.userId !== userId) throw noSuchSocket();
    await local.join(room);
    return;
  }
  const sockets = await io.in(socketId).fetchSockets();
  const own = sockets.find((s) => (s.data as SocketData | undefined)?.userId === userId);
  if (!own) throw noSuchSocket();
  io.in(socketId).socketsJoin(room);
  // The join travels to the other process asynchronously; answer only once it took effect, so no
  // event published after this response can miss the connection.
  for (let i = 0; i < 50; i++) {
    const [again] = await io.in(socketId).fetchSockets();
    if (!again || again.rooms.has(room)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function noSuchSocket(): ApiError {
  return new ApiError("BAD_REQUEST", "X-Socket-Id does not name a connected socket of this caller", {
    issues: [{ path: "header.x-socket-id", message: "no such connection for this caller", code: "custom" }],
  });
}
