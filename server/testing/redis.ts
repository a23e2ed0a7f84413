// Test support: the Redis server of the queue tests (TEST_REDIS_URL, default redis://127.0.0.1:6379).
// Unreachable Redis skips those tests with the reason, except in CI (CI=true), where it fails them.
import { createClient } from "redis";

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Registers a hook that probes Redis once; `skipReason()` is "" when it answered. */
export function withRedis(before: (fn: () => Promise<void>) => void) {
  let unavailable = "";
  before(async () => {
    const probe = createClient({ url: TEST_REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
    probe.on("error", () => undefined);
    try {
      await probe.connect();
      await probe.quit();
    } catch (e) {
      if (process.env.CI === "true") throw e;
      unavailable = `Redis unreachable at ${TEST_REDIS_URL}`;
    }
  });
  return { url: TEST_REDIS_URL, skipReason: () => unavailable };
}

/** Deletes every key under a test's own prefix. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const client = createClient({ url: TEST_REDIS_URL });
  await client.connect();
  try {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length) await client.del(keys);
  } finally {
    await client.quit();
  }
}
