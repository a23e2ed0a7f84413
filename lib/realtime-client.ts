"use client";

// The browser's one Socket.IO connection (same origin, authenticated by the session cookie) and a
// hook that subscribes it to a project's or a todo's room. Subscriptions are renewed after every
// reconnect, since a new connection has a new socket id and no rooms.
import { useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";

export type RealtimeEvent<T = unknown> = {
  type: string;
  id: string;
  at: number;
  projectId?: string;
  todoId?: string;
  userId?: string;
  data: T;
};

export type RealtimeTarget = { kind: "project"; id: string } | { kind: "todo"; id: string };

let shared: Socket | null = null;

export function realtimeSocket(): Socket {
  shared ??= io({ path: "/socket.io", transports: ["websocket"], withCredentials: true });
  return shared;
}

async function subscribe(target: RealtimeTarget, socketId: string): Promise<void> {
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
    const socket = realtimeSocket();
    let active = true;
    const onConnect = () => {
      subscribe({ kind, id }, socket.id!)
        .then(() => {
          if (!active) return;
          setStatus("live");
          handlers.current.onSubscribed?.();
        })
        .catch(() => active && setStatus("offline"));
    };
    const onDisconnect = () => active && setStatus("offline");
    const onAny = (_name: string, event: RealtimeEvent) => {
      if (active && event && typeof event === "object") handlers.current.onEvent(event);
    };
    socket.on("connect", onConnect);
    socket.on("disconnect", onDisconnect);
    socket.on("connect_error", onDisconnect);
    socket.onAny(onAny);
    if (socket.connected) onConnect();
    return () => {
      active = false;
      socket.off("connect", onConnect);
      socket.off("disconnect", onDisconnect);
      socket.off("connect_error", onDisconnect);
      socket.offAny(onAny);
    };
  }, [kind, id]);
  return status;
}
