import { test } from "node:test";
import assert from "node:assert/strict";
import type { Socket } from "socket.io";
import { RateLimits } from "../http/rate-limit.ts";
import { limitHandshakes } from "./handshake-limit.ts";

function handshake(middleware: ReturnType<typeof limitHandshakes>, address: string): Promise<(Error & { data?: { code: string; retryAfter: number } }) | undefined> {
  const socket = { conn: { remoteAddress: address }, handshake: { address } } as unknown as Socket;
  return new Promise((resolve) => middleware(socket, (err) => resolve(err as never)));
}

test("Socket.IO handshakes are limited per IP: over the socketHandshake policy the connection fails with TOO_MANY_REQUESTS", async () => {
  const middleware = limitHandshakes(new RateLimits({ overrides: { socketHandshake: { points: 3, window: 60 } } }));
  for (let i = 0; i < 3; i++) assert.equal(await handshake(middleware, "203.0.113.5"), undefined);
  const refused = await handshake(middleware, "203.0.113.5");
  assert.ok(refused instanceof Error);
  assert.equal(refused.data?.code, "TOO_MANY_REQUESTS");
  assert.ok(refused.data!.retryAfter >= 1 && refused.data!.retryAfter <= 60);
  assert.equal(await handshake(middleware, "198.51.100.9"), undefined, "another IP has its own budget");
});
