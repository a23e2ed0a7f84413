import type { SubscriptionOutcome } from "./handshake-subscribe.ts";

/**
 * What a connected socket carries (`socket.data`): who it is, by which credential, its scope, and
 * what its handshake subscribed. An anonymous connection (public todos only, docs/api.md
 * "Real-time") has no `userId`; `publicTodos` maps each public todo it hears to the todo's project.
 */
export type SocketData = {
  userId?: string;
  credential: string;
  deviceId?: string | null;
  todoScope?: string | null;
  subscription?: SubscriptionOutcome;
  flushFirst?: string[];
  publicTodos?: Record<string, string>;
};
