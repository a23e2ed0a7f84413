import type { SubscriptionOutcome } from "./handshake-subscribe.ts";

/** What a connected socket carries (`socket.data`): who it is, by which credential, its scope, and what its handshake subscribed. */
export type SocketData = { userId: string; credential: string; deviceId?: string | null; todoScope?: string | null; subscription?: SubscriptionOutcome; flushFirst?: string[] };
