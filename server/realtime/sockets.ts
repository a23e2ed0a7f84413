import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import { credentialsOf, type Caller } from "../auth/caller.ts";
import { credentialCache } from "../auth/credential-cache.ts";
import { resolveHandshake } from "../auth/resolve.ts";
import { ApiError } from "../http/errors.ts";
import { isAppOrigin } from "../http/same-origin.ts";
import { log } from "../log.ts";
import { signalTurn, turnSignals, type TurnSignal } from "../agent/turn-signals.ts";
import { limitHandshakes } from "./handshake-limit.ts";
import { attachDeviceShell } from "./device-shell.ts";
import { memoryPresence, redisPresence, trackDevicePresence, type PresenceStore } from "./presence.ts";
import type { RateLimits } from "../http/rate-limit.ts";
import { db } from "../runtime.ts";
import { visibleProjectsWhere, visibleTodosWhere } from "../services/access.ts";
import { envelopeOf, roomsFor, type AppEvent, type ConnectionEffect, type CredentialRef, type EventBus, type Room } from "./bus.ts";

import type { SocketData } from "./socket-data.ts";
import { sendPublicSignal } from "./public-todos.ts";
import { checkHandshakeSubscriptions, parseHandshakeSubscribe, SUBSCRIPTION_EVENT, type SubscriptionTarget } from "./handshake-subscribe.ts";

export type { SocketData } from "./socket-data.ts";

export type SocketOptions = { redisUrl?: string; redisPrefix?: string; appUrl: string; trustProxy?: boolean; limits?: RateLimits };


/** `user:<id>` is the user's own room (every connection joins it); the others get a credential room. */
export function credentialRoom(ref: CredentialRef): Room {
  return ref.startsWith("user:") ? (ref as `user:${string}`) : `credential:${ref}`;
}

// setTimeout's limit (about 24.8 days): a longer session is cut there and the client reconnects.
const MAX_TIMER_MS = 2 ** 31 - 1;

function refused(message: string, code: string): Error {
  const err = new Error(message) as Error & { data?: unknown };
  err.data = { code };
  return err;
}

/** Socket.IO on the HTTP server's port, authenticated like HTTP, fed by the event bus. */
export async function attachSockets(httpServer: HttpServer, bus: EventBus, opts: SocketOptions): Promise<{ io: Server; close(): Promise<void>; /** Redis for the adapter: undefined without Redis. */ redisUp(): boolean | undefined }> {
  const io = new Server(httpServer, { path: "/socket.io", serveClient: false });
  const closers: (() => Promise<unknown>)[] = [];
  let redisUp: () => boolean | undefined = () => undefined;
  let presence: PresenceStore = memoryPresence();

  if (opts.redisUrl) {
    const [{ createAdapter }, { createClient }] = await Promise.all([import("@socket.io/redis-adapter"), import("redis")]);
    const pub = createClient({ url: opts.redisUrl });
    const sub = pub.duplicate();
    pub.on("error", (err) => log.error("redis (pub) error", { error: String(err) }));
    sub.on("error", (err) => log.error("redis (sub) error", { error: String(err) }));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub, { key: `${opts.redisPrefix ?? "todo-service"}:socket.io` }));
    closers.push(() => pub.quit(), () => sub.quit());
    redisUp = () => pub.isReady && sub.isReady;
    presence = redisPresence(pub, opts.redisPrefix ?? "todo-service");
    log.info("socket.io redis adapter on");
  }

  if (opts.limits) io.use(limitHandshakes(opts.limits));
  io.use((socket, next) => {
    const { auth, headers } = socket.handshake;
    const token = (auth as { token?: unknown } | undefined)?.token;
    let wanted: SubscriptionTarget[] | undefined;
    try {
      wanted = parseHandshakeSubscribe((auth as { subscribe?: unknown } | undefined)?.subscribe);
    } catch (err) {
      return next(refused(err instanceof Error ? err.message : "Invalid auth.subscribe", "BAD_REQUEST"));
    }
    const usesCookie = !(typeof token === "string" && token);
    // The session cookie is ambient: a page of another site could open a connection with it.
    // Browsers always send Origin on these handshakes; scripts with a token send none and need none.
    const origin = headers.origin;
    if (usesCookie && origin !== undefined) {
      const header = (name: string) => {
        const v = headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      if (!isAppOrigin(origin, header, opts.appUrl, { trustProxy: opts.trustProxy ?? false, protocol: socket.handshake.secure ? "https" : "http" }))
        return next(refused("Cross-site connection refused", "FORBIDDEN"));
    }
    const ip = socket.conn.remoteAddress || socket.handshake.address;
    resolveHandshake(token, headers.cookie)
      .then(async (caller) => {
        if (!caller) {
          // Without a credential (and with no bad token), a connection may hear public todos only.
          if (usesCookie && wanted?.length && wanted.every((t) => t.kind === "publicTodo")) {
            const subscribed = await checkHandshakeSubscriptions(null, wanted, opts.limits, ip);
            const data: SocketData = { credential: "anonymous", subscription: subscribed.outcome, flushFirst: subscribed.running, publicTodos: subscribed.publicTodos };
            socket.data = data;
            void socket.join(subscribed.rooms);
            return next();
          }
          return next(refused("Missing, invalid or expired credential", "UNAUTHORIZED"));
        }
        // Subscriptions asked for in the handshake: checked like todo_subscribe, joined before `connect`.
        const subscribed = wanted ? await checkHandshakeSubscriptions(caller, wanted, opts.limits, ip) : undefined;
        const data: SocketData = {
          userId: caller.userId,
          credential: caller.credential,
          deviceId: caller.deviceId,
          todoScope: caller.todoScope,
          subscription: subscribed?.outcome,
          flushFirst: subscribed?.running,
          publicTodos: subscribed?.publicTodos,
        };
        socket.data = data;
        // A todo-scoped token hears its todo only (todo_subscribe), not the account's events.
        const rooms = credentialsOf(caller).map(credentialRoom);
        void socket.join([...(caller.todoScope ? rooms : [`user:${caller.userId}` satisfies Room, ...rooms]), ...(subscribed?.rooms ?? [])]);
        // A session or token that expires ends its connections too (a client may reconnect with a fresh one).
        if (caller.expiresAt !== undefined) {
          const timer = setTimeout(() => socket.disconnect(true), Math.min(Math.max(caller.expiresAt - Date.now(), 0), MAX_TIMER_MS));
          socket.once("disconnect", () => clearTimeout(timer));
        }
        next();
      })
      .catch((err) => {
        log.error("socket auth failed", { error: String(err) });
        next(new Error("Internal server error"));
      });
  });

  // A credential revoked while its handshake was being checked: the revocation's disconnect can
  // only reach connected sockets, so check once more now that this one is reachable.
  io.on("connection", (socket) => {
    // The outcome of auth.subscribe, as the connection's first event (only when it was asked for).
    // A streaming turn writes its reply coalesced: as todo_subscribe does, it is asked to write what
    // it streamed before the client hears it is subscribed (and reads), now that the rooms are joined,
    // so the deltas from here on continue the text the client reads.
    const { subscription, flushFirst } = socket.data as SocketData;
    if (subscription)
      void Promise.all((flushFirst ?? []).map((todoId) => signalTurn(todoId, "flush").catch(() => undefined))).then(() => {
        if (socket.connected) socket.emit(SUBSCRIPTION_EVENT, subscription);
      });
    // An anonymous connection (public todos only) has no credential to lose.
    if (!(socket.data as SocketData).userId) return;
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    resolveHandshake(token, socket.handshake.headers.cookie)
      .then((caller) => {
        if (!caller) socket.disconnect(true);
      })
      .catch(() => undefined);
  });

  const stopPresence = trackDevicePresence(io, bus, presence);
  const stopShell = attachDeviceShell(io, bus);

  // The fan-out runs after the publishing request's turn of the event loop, not inside it: writing
  // one event to a thousand sockets takes tens of milliseconds that its response would otherwise
  // wait for. One queue keeps the publishing order; an effect (revocation, access lost) first
  // sends what was published before it, so nothing published after it overtakes it.
  const queue: AppEvent[] = [];
  let flushing: NodeJS.Immediate | undefined;
  const flush = () => {
    if (flushing) clearImmediate(flushing);
    flushing = undefined;
    for (const event of queue.splice(0)) {
      // message.delta is high-volume and only meaningful to viewers of that todo.
      const rooms = event.type === "message.delta" && event.todoId ? [`todo:${event.todoId}`] : roomsFor(event);
      if (rooms.length) io.to(rooms).emit(event.type, envelopeOf(event));
      sendPublicSignal(io, event);
    }
  };
  const unsubscribe = bus.subscribe((event) => {
    queue.push(event);
    flushing ??= setImmediate(flush);
  });
  if (opts.redisUrl)
    io.on(CACHE_DROP, (ref: CredentialRef, ack?: () => void) => {
      credentialCache()?.drop(ref);
      ack?.();
    });
  if (opts.redisUrl)
    io.on(TURN_SIGNAL, (todoId: string, signal: TurnSignal, ack?: () => void) => {
      void turnSignals.deliver(todoId, signal).then(() => ack?.());
    });
  const unEffect = bus.onEffect((effect) => {
    flush();
    return applyEffect(io, effect, !!opts.redisUrl).catch((err: unknown) => log.error("socket effect failed", { kind: effect.kind, error: String(err) }));
  });

  return {
    io,
    redisUp: () => redisUp(),
    async close() {
      unsubscribe();
      flush();
      unEffect();
      stopPresence();
      stopShell();
      // Not io.close(): that would also close the HTTP server, cutting requests still in flight.
      // Nor disconnectSockets: its "io server disconnect" tells a client not to come back. Closing
      // the transports is a "transport close" to the client, which reconnects (to this process once
      // restarted, or to another behind the load balancer) and resubscribes in its handshake.
      io.engine.close();
      await Promise.allSettled(closers.map((c) => c()));
    },
  };
}

/** Server-to-server message (through the adapter): a signal for the todo's turn, if it runs in your process. */
const TURN_SIGNAL = "agent:turn-signal";
const FLUSH_WAIT_MS = 1000;

/** Carries a turn signal to the other processes; a flush resolves once they wrote the reply (or after FLUSH_WAIT_MS), the others at once. */
async function relayTurnSignal(io: Server, todoId: string, signal: TurnSignal): Promise<void> {
  if (signal !== "flush") {
    io.serverSideEmit(TURN_SIGNAL, todoId, signal);
    return;
  }
  await new Promise<void>((resolve) => {
    const late = setTimeout(resolve, FLUSH_WAIT_MS);
    io.serverSideEmit(TURN_SIGNAL, todoId, signal, () => {
      clearTimeout(late);
      resolve();
    });
  });
}

/** Server-to-server message (through the adapter): drop this credential from your cache. */
const CACHE_DROP = "credential-cache:drop";
const CACHE_DROP_WAIT_MS = 1000;

/** Drops `ref` from this process's credential cache and, before resolving, from every other one's. */
async function dropCached(io: Server, ref: CredentialRef, crossProcess: boolean): Promise<void> {
  credentialCache()?.drop(ref);
  if (!crossProcess) return;
  await new Promise<void>((resolve) => {
    const late = setTimeout(() => {
      log.warn("a process did not confirm a credential drop in time; its cache forgets within seconds");
      resolve();
    }, CACHE_DROP_WAIT_MS);
    io.serverSideEmit(CACHE_DROP, ref, (err: Error | null) => {
      if (err) log.warn("a credential drop was not confirmed by every process", { error: String(err) });
      clearTimeout(late);
      resolve();
    });
  });
}

/**
 * With the Redis adapter, disconnectSockets and socketsLeave reach every server process. They go
 * out on the same connection as the events published after them, so no later event overtakes them.
 */
export async function applyEffect(io: Server, effect: ConnectionEffect, crossProcess = false): Promise<void> {
  if (effect.kind === "credential.revoked") {
    await dropCached(io, effect.credential, crossProcess);
    io.in(credentialRoom(effect.credential)).disconnectSockets(true);
    return;
  }
  if (effect.kind === "caller.changed") {
    await dropCached(io, `user:${effect.userId}`, crossProcess);
    return;
  }
  if (effect.kind === "turn.signal") {
    // This process's turns have it already (signalTurn); only the others need it.
    if (crossProcess) await relayTurnSignal(io, effect.todoId, effect.signal);
    return;
  }
  await leaveUnreadableRooms(io, effect.userId);
}

/** Takes the user's connections out of every project and todo room the user may no longer read. */
async function leaveUnreadableRooms(io: Server, userId: string): Promise<void> {
  const sockets = await io.in(`user:${userId}`).fetchSockets();
  const projectIds = new Set<string>();
  const todoIds = new Set<string>();
  for (const s of sockets)
    for (const room of s.rooms) {
      if (room.startsWith("project:")) projectIds.add(room.slice("project:".length));
      else if (room.startsWith("todo:")) todoIds.add(room.slice("todo:".length));
    }
  if (projectIds.size === 0 && todoIds.size === 0) return;
  const user = { userId };
  const [projects, todos] = await Promise.all([
    db().project.findMany({ where: { id: { in: [...projectIds] }, ...visibleProjectsWhere(user) }, select: { id: true } }),
    db().todo.findMany({ where: { id: { in: [...todoIds] }, ...visibleTodosWhere(user) }, select: { id: true } }),
  ]);
  const keepProjects = new Set(projects.map((p) => p.id));
  const keepTodos = new Set(todos.map((t) => t.id));
  const leave: Room[] = [
    ...[...projectIds].filter((id) => !keepProjects.has(id)).map((id) => `project:${id}` as const),
    ...[...todoIds].filter((id) => !keepTodos.has(id)).map((id) => `todo:${id}` as const),
  ];
  if (leave.length) io.in(`user:${userId}`).socketsLeave(leave);
}

// Socket.IO ids are base64url (20 characters). io.in() takes any room name, and every room of
// ours has a ':' (`project:…`, `user:…`), so an id must have none.
const SOCKET_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Joins the caller's own connection to a room (the subscribe operations). The connection may live
 * on another server process: with the Redis adapter, fetchSockets and join cross processes.
 * The connection must be a connected socket of the caller's user; one opened with a todo-scoped
 * token only ever joins its own todo's room, whoever asks.
 */
export async function joinRoom(io: Server | undefined, socketId: string | undefined, caller: Pick<Caller, "userId">, room: Room): Promise<void> {
  if (!socketId)
    throw new ApiError("BAD_REQUEST", "X-Socket-Id header (or socketId body field) is required to subscribe", {
      issues: [{ path: "header.x-socket-id", message: "required", code: "invalid_type" }],
    });
  if (!io) throw new ApiError("CONFLICT", "Real-time updates are not available in this process");
  if (!SOCKET_ID.test(socketId)) throw noSuchSocket();
  const own = (data: unknown) => {
    const d = data as SocketData | undefined;
    return d?.userId === caller.userId && (!d.todoScope || room === `todo:${d.todoScope}`);
  };
  const local = io.sockets.sockets.get(socketId);
  if (local) {
    if (!own(local.data)) throw noSuchSocket();
    await local.join(room);
    return;
  }
  const sockets = await io.in(socketId).fetchSockets();
  const remote = sockets.find((s) => s.id === socketId);
  if (!remote || !own(remote.data)) throw noSuchSocket();
  remote.join(room);
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
