import { createHash, randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/client.ts";
import { log } from "../log.ts";
import { ApiError, errorResponse, toApiError } from "./errors.ts";

// Idempotent POSTs (docs/api.md "Idempotent POSTs (issue 10)"), Stripe's semantics: the first
// response to an `Idempotency-Key` is stored per credential for 24 h and replayed byte for byte
// with `Idempotent-Replayed: true`. The same key with another request is 422; while the first
// request runs, the same key is 409. 5xx answers are not stored (a retry may succeed); 4xx answers
// from the handler are (the request ran and was refused: retrying it is refused alike).
// Stored in the database (IdempotencyKey), so every server process sees the same keys.

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A first request still "running" after this long is taken to have died with its process; the key may run again. */
export const IDEMPOTENCY_LOCK_MS = 5 * 60 * 1000;
/** Expired rows are deleted lazily, at most this often per process. */
const SWEEP_EVERY_MS = 60 * 1000;

/** Headers that belong to one request, not to the stored answer: each replay sends its own. */
const PER_REQUEST_HEADERS = new Set(["x-request-id", "ratelimit", "ratelimit-policy", "retry-after", REPLAYED_HEADER]);

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The request's key: undefined without the header, 400 when it is not 1–255 printable ASCII characters. */
export function readIdempotencyKey(headers: Headers): string | undefined {
  const value = headers.get(IDEMPOTENCY_HEADER);
  if (value === null) return undefined;
  if (!KEY_PATTERN.test(value))
    throw new ApiError("BAD_REQUEST", "Idempotency-Key must be 1 to 255 printable ASCII characters", {
      issues: [{ path: "header.idempotency-key", message: "expected 1 to 255 printable ASCII characters", code: "invalid_format" }],
    });
  return value;
}

/** What makes two requests "the same": method, path with query, and the JSON body (as parsed, so whitespace aside). */
export function requestFingerprint(method: string, pathAndQuery: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method}\n${pathAndQuery}\n${JSON.stringify(body ?? null)}`)
    .digest("hex");
}

export type StoredResponse = { status: number; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> };
export type Claim = { kind: "run"; id: string } | { kind: "replay"; response: StoredResponse };

export class IdempotencyStore {
  private lastSweep = 0;

  constructor(
    private readonly db: () => PrismaClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** Claims (scope, key) for this request, or answers with the stored response; 422 for another request, 409 while the first runs. */
  async begin(scope: string, key: string, fingerprint: string): Promise<Claim> {
    const db = this.db();
    const now = this.now();
    await this.sweep(now);
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = randomUUID();
      // INSERT … ON CONFLICT DO NOTHING in raw SQL: Prisma's createMany (skipDuplicates) compiles a new query plan on every call.
      const count = await db.$executeRaw`
        INSERT INTO "IdempotencyKey" ("id", "scope", "key", "fingerprint", "lockedAt", "expiresAt", "createdAt")
        VALUES (${id}, ${scope}, ${key}, ${fingerprint}, ${new Date(now)}::timestamp(3), ${new Date(now + IDEMPOTENCY_TTL_MS)}::timestamp(3), ${new Date(now)}::timestamp(3))
        ON CONFLICT DO NOTHING`;
      if (count === 1) return { kind: "run", id };
      const row = await db.idempotencyKey.findUnique({ where: { scope_key: { scope, key } } });
      if (!row) continue;
      if (row.expiresAt.getTime() <= now) {
        await db.idempotencyKey.deleteMany({ where: { id: row.id, expiresAt: { lte: new Date(now) } } });
        continue;
      }
      if (row.fingerprint !== fingerprint)
        throw new ApiError("UNPROCESSABLE_CONTENT", "This Idempotency-Key was used with a different request (method, path or body); use a new key");
      if (row.status !== null && row.body !== null)
        return { kind: "replay", response: { status: row.status, headers: (row.headers ?? {}) as Record<string, string>, body: new Uint8Array(row.body) } };
      if (now - row.lockedAt.getTime() >= IDEMPOTENCY_LOCK_MS) {
        const taken = await db.idempotencyKey.updateMany({ where: { id: row.id, status: null, lockedAt: row.lockedAt }, data: { lockedAt: new Date(now) } });
        if (taken.count === 1) return { kind: "run", id: row.id };
        continue;
      }
      break;
    }
    throw new ApiError("CONFLICT", "A request with this Idempotency-Key is in progress; retry when it has finished");
  }

  async complete(id: string, response: StoredResponse): Promise<void> {
    await this.db().idempotencyKey.updateMany({ where: { id }, data: { status: response.status, headers: response.headers, body: response.body } });
  }

  /** Forgets a claim whose request ended without an answer worth keeping (5xx), so the key may run again. */
  async release(id: string): Promise<void> {
    await this.db().idempotencyKey.deleteMany({ where: { id, status: null } });
  }

  /** Deletes expired rows, at most once a minute (lazy cleanup; no scheduler needed). */
  async sweep(now = this.now(), force = false): Promise<number> {
    if (!force && now - this.lastSweep < SWEEP_EVERY_MS) return 0;
    this.lastSweep = now;
    try {
      return (await this.db().idempotencyKey.deleteMany({ where: { expiresAt: { lte: new Date(now) } } })).count;
    } catch (err) {
      log.warn("idempotency sweep failed", { error: String(err) });
      return 0;
    }
  }
}

/**
 * Runs `run` once per (scope, key): the first time it runs and its answer is stored (unless 5xx);
 * afterwards the stored answer is sent again with `Idempotent-Replayed: true`. `headers` are this
 * request's own (request id, rate limit), added to fresh and replayed answers alike.
 */
export async function runIdempotent(
  store: IdempotencyStore,
  claim: { scope: string; key: string; fingerprint: string },
  headers: Record<string, string>,
  run: () => Promise<Response>,
): Promise<Response> {
  const begun = await store.begin(claim.scope, claim.key, claim.fingerprint);
  if (begun.kind === "replay") {
    const { status, headers: stored, body } = begun.response;
    return new Response(body, { status, headers: { ...stored, ...headers, [REPLAYED_HEADER]: "true" } });
  }
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    const { error, unexpected } = toApiError(err);
    if (unexpected || error.status >= 500) {
      await store.release(begun.id).catch((e: unknown) => log.warn("idempotency release failed", { error: String(e) }));
      throw err;
    }
    response = errorResponse(error, headers);
  }
  if (response.status >= 500) {
    await store.release(begun.id).catch((e: unknown) => log.warn("idempotency release failed", { error: String(e) }));
    return response;
  }
  const body = new Uint8Array(await response.clone().arrayBuffer());
  const kept: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!PER_REQUEST_HEADERS.has(name)) kept[name] = value;
  });
  // The handler has run: a failure to store is logged, never turned into a 500 that invites a retry.
  // The claim then stays "in progress" until IDEMPOTENCY_LOCK_MS has passed.
  await store.complete(begun.id, { status: response.status, headers: kept, body }).catch((e: unknown) => log.error("idempotency store failed", { error: String(e) }));
  return response;
}
