"use client";

import { useEffect, useRef } from "react";
import { realtimeSocket, type RealtimeEvent } from "@/lib/realtime-client";

/**
 * Listens on the browser's one Socket.IO connection (lib/realtime-client.ts) for every event it
 * receives: those of the user's own room `user:<id>` and of the rooms pages subscribed. `onConnect`
 * runs after each (re)connect, so a listener can reload what it may have missed.
 */
export function useSocketEvents(onEvent: (event: RealtimeEvent) => void, onConnect?: () => void): void {
  const handlers = useRef({ onEvent, onConnect });
  useEffect(() => {
    handlers.current = { onEvent, onConnect };
  });
  useEffect(() => {
    const socket = realtimeSocket();
    const any = (_name: string, event: RealtimeEvent) => {
      if (event && typeof event === "object") handlers.current.onEvent(event);
    };
    const connected = () => handlers.current.onConnect?.();
    socket.onAny(any);
    socket.on("connect", connected);
    return () => {
      socket.offAny(any);
      socket.off("connect", connected);
    };
  }, []);
}
