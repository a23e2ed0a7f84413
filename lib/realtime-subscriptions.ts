// The subscription logic of a Socket.IO connection, shared by the browser (lib/realtime-client.ts)
// and any other client (the fault tests drive it from Node): the targets being watched are sent in
// every handshake as `auth.subscribe` (docs/api.md "Real-time"), so the server joins their rooms
// before `connect` on the first connection and on every reconnect, with no request of ours. The
// server answers with the `subscription` event; a target it did not take (refused, or added after
// the handshake) is subscribed over HTTP instead (todo_subscribe / project_subscribe).
import type { Socket } from "socket.io-client";

/** `publicTodo`: a public todo's changes, for anyone with its share link (no credential needed; docs/api.md "Real-time"). */
export type RealtimeTarget = { kind: "project"; id: string } | { kind: "todo"; id: string } | { kind: "publicTodo"; id: string };

/** The server's `subscription` event (server/realtime/handshake-subscribe.ts). */
export type SubscriptionOutcome = {
  subscribed: RealtimeTarget[];
  refused: (RealtimeTarget & { code: string; message: string })[];
};

export const SUBSCRIPTION_EVENT = "subscription";

const keyOf = (t: RealtimeTarget) => `${t.kind}:${t.id}`;

/** The targets a connection asks for in its handshake, each kept while someone watches it. */
export class TargetRegistry {
  private readonly entries = new Map<string, { target: RealtimeTarget; watchers: number }>();

  /** Watches `target`; returns the release. */
  retain(target: RealtimeTarget): () => void {
    const key = keyOf(target);
    const entry = this.entries.get(key) ?? { target: { ...target }, watchers: 0 };
    entry.watchers++;
    this.entries.set(key, entry);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--entry.watchers === 0) this.entries.delete(key);
    };
  }

  list(): RealtimeTarget[] {
    return [...this.entries.values()].map((e) => e.target);
  }

  /** For `io(url, { auth })`: called by Socket.IO before every (re)connection. */
  auth(extra: Record<string, unknown> = {}): (cb: (data: object) => void) => void {
    return (cb) => cb({ ...extra, subscribe: this.list() });
  }
}

export type KeepSubscribedOptions = {
  /** The HTTP subscribe for a target the handshake did not cover (X-Socket-Id = socketId). */
  httpSubscribe: (target: RealtimeTarget, socketId: string) => Promise<void>;
  /** After each (re)subscription: the caller reloads what it may have missed while offline. */
  onLive: () => void;
  onOffline: () => void;
};

/**
 * Keeps `target` subscribed on `socket` (created with `registry.auth()`) across reconnects, until
 * the returned function is called.
 */
export function keepSubscribed(socket: Socket, registry: TargetRegistry, target: RealtimeTarget, o: KeepSubscribedOptions): () => void {
  const release = registry.retain(target);
  const key = keyOf(target);
  let active = true;
  const viaHttp = () => {
    const id = socket.id;
    if (!id) return;
    o.httpSubscribe(target, id).then(
      () => active && socket.id === id && o.onLive(),
      () => active && o.onOffline(),
    );
  };
  const onSubscription = (outcome: SubscriptionOutcome) => {
    if (!active) return;
    if (outcome?.subscribed?.some((t) => keyOf(t) === key)) o.onLive();
    // A public todo has no HTTP subscribe to ask why: refused (private now, or gone) is final.
    else if (target.kind === "publicTodo" && outcome?.refused?.some((t) => keyOf(t) === key)) o.onOffline();
    // Refused (HTTP answers why) or added after this handshake.
    else viaHttp();
  };
  const onDisconnect = () => active && o.onOffline();
  socket.on(SUBSCRIPTION_EVENT, onSubscription);
  socket.on("disconnect", onDisconnect);
  socket.on("connect_error", onDisconnect);
  // Already connected: this handshake did not name the target.
  if (socket.connected) viaHttp();
  return () => {
    active = false;
    release();
    socket.off(SUBSCRIPTION_EVENT, onSubscription);
    socket.off("disconnect", onDisconnect);
    socket.off("connect_error", onDisconnect);
  };
}
