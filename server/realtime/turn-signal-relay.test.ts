import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import { setLogLevel } from "../log.ts";
import { turnSignals } from "../agent/turn-signals.ts";
import { listenLocal } from "../testing/listen.ts";
import { deleteRedisKeys, withRedis } from "../testing/redis.ts";
import { EventBus } from "./bus.ts";
import { attachSockets } from "./sockets.ts";

// Two server processes' Socket.IO layers on one Redis (the adapter): a turn signal published on
// one process's bus reaches a turn watched in the other through the relay, and a flush resolves
// only once that turn wrote its reply. (Both live in this one test process, so the relay is shown
// by publishing on the bus alone: the bus never delivers to this process's turns itself.)

const redis = withRedis(before);
const prefix = `test-turn-signal-${randomUUID().slice(0, 8)}`;
const servers: { http: HttpServer; bus: EventBus; close(): Promise<void> }[] = [];

before(async () => {
  setLogLevel("silent");
  if (redis.skipReason()) return;
  for (let i = 0; i < 2; i++) {
    const http = createServer();
    const bus = new EventBus();
    const { close } = await attachSockets(http, bus, { appUrl: "http://app.test", redisUrl: redis.url, redisPrefix: prefix });
    await listenLocal(http);
    servers.push({ http, bus, close });
  }
});

after(async () => {
  for (const s of servers) {
    await s.close();
    await new Promise((r) => s.http.close(r));
  }
  if (!redis.skipReason()) await deleteRedisKeys(prefix);
});

test("a turn.signal effect on one process's bus reaches the turn in the other; flush waits for its write", async (t) => {
  if (redis.skipReason()) return t.skip(redis.skipReason());
  const todoId = `todo-${randomUUID()}`;
  const seen: string[] = [];
  let wrote = false;
  const unwatch = turnSignals.watch(todoId, {
    stop: () => seen.push("stop"),
    flush: async () => {
      seen.push("flush");
      await new Promise((r) => setTimeout(r, 50));
      wrote = true;
    },
  });
  try {
    await servers[0]!.bus.affect({ kind: "turn.signal", todoId, signal: "flush" });
    assert.deepEqual(seen, ["flush"]);
    assert.equal(wrote, true, "the flush was confirmed only after the turn wrote its reply");
    await servers[0]!.bus.affect({ kind: "turn.signal", todoId, signal: "stop" });
    // A stop is not waited for: it arrives shortly after.
    const until = Date.now() + 5000;
    while (!seen.includes("stop") && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(seen, ["flush", "stop"]);
  } finally {
    unwatch();
  }
  // A todo with no turn anywhere: the flush still resolves (every process answers).
  await servers[1]!.bus.affect({ kind: "turn.signal", todoId: `none-${randomUUID()}`, signal: "flush" });
});
