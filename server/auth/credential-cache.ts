import { credentialsOf, type Caller, type CredentialRef } from "./caller.ts";

// Point reads resolve their credential from here instead of the database: a resolved caller is
// kept for a few seconds in this process. A revocation drops it at once: every revocation goes
// through the event bus's `credential.revoked` effect, which drops it here and, through the
// Socket.IO adapter, in every other process (server/realtime/sockets.ts) before the revoking
// request is answered. The short lifetime bounds everything else that could go stale (a user's
// name or admin flag changed, a row deleted by hand): at most TTL_MS.
// Only found credentials are kept: an unknown key always asks the database (and the limiter).

export const CREDENTIAL_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

type Entry = { caller: Caller; until: number };

export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  /** Counts drops: a caller read from the database before a drop is not kept after it. */
  private drops = 0;

  constructor(
    private readonly ttlMs = CREDENTIAL_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The caller kept for `key` (a credential's hash), unless stale or expired. */
  get(key: string): Caller | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    const t = this.now();
    if (e.until <= t || (e.caller.expiresAt !== undefined && e.caller.expiresAt <= t)) {
      this.entries.delete(key);
      return undefined;
    }
    return e.caller;
  }

  /** Take before reading the database; hand to `set`. */
  mark(): number {
    return this.drops;
  }

  /** Keeps `caller` for `key`, unless a drop came between the database read (`mark`) and now. */
  set(key: string, caller: Caller, mark: number): void {
    if (mark !== this.drops) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // Oldest first (a Map keeps insertion order): drop a tenth.
      let n = Math.ceil(MAX_ENTRIES / 10);
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (--n === 0) break;
      }
    }
    this.entries.set(key, { caller, until: this.now() + this.ttlMs });
  }

  /** Forgets every caller acting with `ref` (`user:<id>`: all of that user's). */
  drop(ref: CredentialRef): void {
    this.drops++;
    const userId = ref.startsWith("user:") ? ref.slice("user:".length) : undefined;
    for (const [k, e] of this.entries)
      if (userId !== undefined ? e.caller.userId === userId : credentialsOf(e.caller).includes(ref)) this.entries.delete(k);
  }

  clear(): void {
    this.drops++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

let active: CredentialCache | undefined;

/** The server turns the cache on (server/main.ts); scripts and unit tests read the database each time. */
export function enableCredentialCache(cache: CredentialCache | undefined = new CredentialCache()): CredentialCache | undefined {
  active = cache;
  return cache;
}

export function credentialCache(): CredentialCache | undefined {
  return active;
}
