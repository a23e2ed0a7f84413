import type { Socket } from "socket.io";
import { ipKey, type RateLimits } from "../http/rate-limit.ts";

/**
 * Socket.IO middleware: each handshake counts against the `socketHandshake` policy of its peer
 * address, before any credential is looked up. A refusal fails the connection with
 * `connect_error` carrying `data: {code: "TOO_MANY_REQUESTS", retryAfter}`.
 */
export function limitHandshakes(limits: RateLimits) {
  return (socket: Socket, next: (err?: Error) => void) => {
    limits
      .consume("socketHandshake", ipKey(socket.conn.remoteAddress || socket.handshake.address))
      .then((outcome) => {
        if (outcome.allowed) return next();
        const err = new Error("Too many connections; retry later") as Error & { data?: unknown };
        err.data = { code: "TOO_MANY_REQUESTS", retryAfter: Number(outcome.headers["retry-after"] ?? 1) };
        next(err);
      })
      .catch(() => next());
  };
}
