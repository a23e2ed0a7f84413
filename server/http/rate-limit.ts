import { createHash } from "node:crypto";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Caller } from "../auth/caller.ts";
import { log } from "../log.ts";
import { ipKey } from "./client-ip.ts";
import { ApiError } from "./errors.ts";

// The one limiter module: named policies, each a fixed window of `points` requests per `window`
// seconds per key. In memory by default; in Redis (under REDIS_PREFIX) with REDIS_URL, so every
// server process counts against the same budget. Headers follow
// draft-ietf-httpapi-ratelimit-headers-10: `RateLimit-Policy: "name";q=600;w=60` and
// `RateLimit: "name";r=599;t=42`.

export type RatePolicy = { points: number; window: number; per: "credential" | "ip" | "email" | "code"; use: string };

/** Every named policy. Operations pick one with `rateLimit` (default: "default"). */
export const RATE_POLICIES = {
  default: { points: 600, window: 60, per: "credential", use: "every operation that names no other policy" },
  anonymous: { points: 600, window: 60, per: "ip", use: "requests without a valid credential (public reads, 401s, unknown paths)" },
  subscribe: { points: 120, window: 60, per: "credential", use: "project_subscribe, todo_subscribe" },
  share: { points: 30, window: 3600, per: "credential", use: "project_share (mails and reveals accounts by email)" },
  report: { points: 20, window: 3600, per: "credential", use: "todo_reportAiOutput" },
  signInMail: { points: 5, window: 900, per: "email", use: "sign-in links mailed to one address" },
  signInIp: { points: 60, window: 900, per: "ip", use: "sign-in links requested from one IP" },
  socketHandshake: { points: 300, window: 60, per: "ip", use: "Socket.IO connections opened from one IP" },
  // Ready for the operations that come next.
  deviceCodePoll: { points: 12, window: 60, per: "code", use: "GET /cli/login/poll (one poll per 5 s interval)" },
  userCodeEntry: { points: 10, window: 600, per: "ip", use: "approving or denying a user code" },
  invite: { points: 20, window: 3600, per: "credential", use: "team invites (mail)" },
  accountData: { points: 20, window: 3600, per: "credential", use: "user_exportData, user_deleteAccount (a whole account read, or deleted)" },
  paymentIntent: { points: 10, window: 3600, per: "credential", use: "payment intents and checkout sessions" },
  courseSignup: { points: 10, window: 3600, per: "ip", use: "course signups from one IP (public page)" },
  courseRedeem: { points: 10, window: 3600, per: "credential", use: "coupon redemptions" },
  webhook: { points: 600, window: 60, per: "ip", use: "raw-body routes (server/http/raw-route.ts): payment provider webhooks" },
} as const satisfies Record<string, RatePolicy>;

export type RatePolicyName = keyof typeof RATE_POLICIES;
export const RATE_POLICY_NAMES = Object.keys(RATE_POLICIES) as RatePolicyName[];

export { CLIENT_IP_HEADER, ipKey } from "./client-ip.ts";

export type RateLimitOverrides = Partial<Record<RatePolicyName, { points: number; window: number }>>;

/** Parses RATE_LIMITS, e.g. `share=3/60,signInIp=10000/900`; throws a message naming the problem. */
export function parseRateLimitOverrides(text: string): RateLimitOverrides {
  const out: RateLimitOverrides = {};
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = part.match(/^([A-Za-z]+)=(\d{1,9})\/(\d{1,7})$/);
    if (!m) throw new Error(`"${part}" is not name=points/seconds`);
    const name = m[1] as RatePolicyName;
    if (!(name in RATE_POLICIES)) throw new Error(`unknown policy "${m[1]}" (one of ${RATE_POLICY_NAMES.join(", ")})`);
    const points = Number(m[2]);
    const window = Number(m[3]);
    if (points < 1 || window < 1) throw new Error(`"${part}": points and seconds must be at least 1`);
    out[name] = { points, window };
  }
  return out;
}

export type RateLimitOptions = {
  /** Multiplies every policy's points (RATE_LIMIT_SCALE); overrides are taken as given. */
  scale?: number;
  overrides?: RateLimitOverrides;
  /** A connected node-redis (v4+) client; without it the counts live in this process. */
  redis?: unknown;
  redisPrefix?: string;
};

export type RateOutcome = { allowed: boolean; headers: Record<string, string> };

export class RateLimits {
  readonly policies: Record<RatePolicyName, { points: number; window: number }>;
  private readonly limiters = new Map<RatePolicyName, RateLimiterAbstract>();

  constructor(private readonly opts: RateLimitOptions = {}) {
    const scale = opts.scale ?? 1;
    this.policies = Object.fromEntries(
      RATE_POLICY_NAMES.map((name) => {
        const base = RATE_POLICIES[name];
        const given = opts.overrides?.[name];
        return [name, given ?? { points: Math.max(1, Math.round(base.points * scale)), window: base.window }];
      }),
    ) as Record<RatePolicyName, { points: number; window: number }>;
  }

  private limiter(name: RatePolicyName): RateLimiterAbstract {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const { points, window } = this.policies[name];
      const keyPrefix = `${this.opts.redisPrefix ?? "todo-service"}:ratelimit:${name}`;
      const memory = new RateLimiterMemory({ points, duration: window, keyPrefix });
      // A Redis outage falls back to counting in this process rather than failing requests.
      limiter = this.opts.redis
        ? new RateLimiterRedis({ storeClient: this.opts.redis, useRedisPackage: true, rejectIfRedisNotReady: true, points, duration: window, keyPrefix, insuranceLimiter: memory })
        : memory;
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Counts one request of `key` against the policy; the headers describe the window after it. */
  async consume(name: RatePolicyName, key: string, points = 1): Promise<RateOutcome> {
    const { points: quota, window } = this.policies[name];
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await this.limiter(name).consume(hashKey(key), points);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        // Not a refusal but a store failure with no fallback left: serve rather than 500.
        log.error("rate limiter failed", { policy: name, error: String(err) });
        return { allowed: true, headers: {} };
      }
      res = err;
      allowed = false;
    }
    const reset = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    const headers: Record<string, string> = {
      "ratelimit-policy": `"${name}";q=${quota};w=${window}`,
      ratelimit: `"${name}";r=${Math.max(0, res.remainingPoints)};t=${reset}`,
    };
    if (!allowed) headers["retry-after"] = String(reset);
    return { allowed, headers };
  }

  /**
   * Sign-in mail: per IP and per address. Returns the 429 to answer, or null to go on. Both ways
   * to ask for a link (the Auth.js route, the sign-in page's form action) call it.
   */
  async signInMail(email: string, ip: string | null | undefined): Promise<ApiError | null> {
    const byIp = await this.consume("signInIp", ipKey(ip));
    if (!byIp.allowed) return tooManyRequests("signInIp", byIp.headers);
    const byEmail = await this.consume("signInMail", `email:${normalizeEmail(email)}`);
    if (!byEmail.allowed) return tooManyRequests("signInMail", byEmail.headers);
    return null;
  }

  /** Like consume, but a refusal throws 429 TOO_MANY_REQUESTS in the spec's error shape. */
  async enforce(name: RatePolicyName, key: string, into: Record<string, string>): Promise<void> {
    const outcome = await this.consume(name, key);
    Object.assign(into, outcome.headers);
    if (!outcome.allowed) throw tooManyRequests(name, outcome.headers);
  }
}

export function tooManyRequests(policy: RatePolicyName, headers: Record<string, string>): ApiError {
  const retryAfter = Number(headers["retry-after"] ?? 1);
  return new ApiError("TOO_MANY_REQUESTS", `Rate limit "${policy}" exceeded; retry after ${retryAfter} s`, { policy, retryAfter }, headers);
}

/** Keys never hold an address or token in the clear (Redis is shared infrastructure). */
function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 32);
}

/** The budget a caller spends: one per API key, per device (or token), per signed-in user. */
export function credentialKey(caller: Caller): string {
  switch (caller.credential) {
    case "apiKey":
      return `key:${caller.apiKeyId ?? caller.userId}`;
    case "device":
      return `device:${caller.deviceId ?? caller.tokenId ?? caller.userId}`;
    case "session":
      return `user:${caller.userId}`;
  }
}

/** Auth.js's default email normalisation, so `Ada@X.org` and `ada@x.org` share one budget. */
export function normalizeEmail(email: string): string {
  const [local = "", domain = ""] = email.toLowerCase().trim().split("@");
  return `${local}@${domain.split(",")[0]}`;
}

/** Opens the limiter for a process: Redis when the config names one. */
export async function createRateLimits(config: {
  redisUrl?: string;
  redisPrefix: string;
  rateLimitScale: number;
  rateLimits: RateLimitOverrides;
}): Promise<{ limits: RateLimits; close(): Promise<void> }> {
  if (!config.redisUrl) return { limits: new RateLimits({ scale: config.rateLimitScale, overrides: config.rateLimits }), close: async () => {} };
  const { createClient } = await import("redis");
  const client = createClient({ url: config.redisUrl });
  client.on("error", (err) => log.error("redis (rate limits) error", { error: String(err) }));
  await client.connect();
  return {
    limits: new RateLimits({ scale: config.rateLimitScale, overrides: config.rateLimits, redis: client, redisPrefix: config.redisPrefix }),
    close: async () => {
      await client.quit().catch(() => undefined);
    },
  };
}
