"use client";

// The browser's one Socket.IO connection (same origin, authenticated by the session cookie) and a
// hook that subscribes it to a project's or a todo's room. The watched targets go in every
// handshake (`auth.subscribe`), so a reconnect resubscribes by itself; a target added while
// connected is subscribed over HTTP (lib/realtime-subscriptions.ts).
import { useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";
import { SUBSCRIPTION_EVENT, TargetRegistry, keepSubscribed, type RealtimeTarget } from "./realtime-subscriptions";

export type { RealtimeTarget } from "./realtime-subscriptions";

export type RealtimeEvent<T = unknown> = {
  type: string;
  id: string;
  at: number;
  projectId?: string;
  todoId?: string;
  userId?: string;
  data: T;
};

let shared: Socket | null = null;
const targets = new TargetRegistry();

export function realtimeSocket(): Socket {
  shared ??= io({ path: "/socket.io", transports: ["websocket"], withCredentials: true, auth: targets.auth() });
  return shared;
}

async function subscribe(target: RealtimeTarget, socketId: string): Promise<void> {
  // A public todo is subscribed in the handshake only (it needs no credential, so no operation
  // joins it): a connection made before the share page asked for it connects again, and its new
  // handshake names every watched target (the others reload once, as after any reconnect).
  if (target.kind === "publicTodo") {
    realtimeSocket().disconnect().connect();
    return;
  }
  const path = target.kind === "project" ? `/projects/${encodeURIComponent(target.id)}/subscribe` : `/todos/${encodeURIComponent(target.id)}/subscribe`;
  const res = await fetch(`/cookie/v1${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-socket-id": socketId },
    body: JSON.stringify({ socketId }),
  });
  if (!res.ok) throw new Error(`subscribe failed (${res.status})`);
}

export type RealtimeStatus = "connecting" | "live" | "offline";

/**
 * Calls `onEvent` for every event the connection receives while `target` is subscribed (events of
 * the user's own room arrive too; filter by `projectId`/`todoId` where it matters). `onSubscribed`
 * runs after each (re)subscription, so a page can reload what it may have missed while offline.
 */
export function useRealtime(
  target: RealtimeTarget | null,
  onEvent: (event: RealtimeEvent) => void,
  onSubscribed?: () => void,
): RealtimeStatus {
  const [status, setStatus] = useState<RealtimeStatus>("connecting");
  const handlers = useRef({ onEvent, onSubscribed });
  useEffect(() => {
    handlers.current = { onEvent, onSubscribed };
  });
  const kind = target?.kind;
  const id = target?.id;
  useEffect(() => {
    if (!kind || !id) return;
    let active = true;
    // Registered before the socket is made, so its first handshake already names the target.
    const hold = targets.retain({ kind, id } as RealtimeTarget);
    const socket = realtimeSocket();
    const stop = keepSubscribed(socket, targets, { kind, id } as RealtimeTarget, {
      httpSubscribe: subscribe,
      onLive: () => {
        if (!active) return;
        setStatus("live");
        handlers.current.onSubscribed?.();
      },
      onOffline: () => active && setStatus("offline"),
    });
    const onAny = (name: string, event: RealtimeEvent) => {
      if (active && name !== SUBSCRIPTION_EVENT && event && typeof event === "object") handlers.current.onEvent(event);
    };
    socket.onAny(onAny);
    return () => {
      active = false;
      stop();
      hold();
      socket.offAny(onAny);
    };
  }, [kind, id]);
  return status;
}
