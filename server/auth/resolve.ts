import { db } from "../runtime.ts";
import { credentialCache } from "./credential-cache.ts";
import type { Base, Caller } from "./caller.ts";
import { API_KEY_PATTERN, DEVICE_TOKEN_PATTERN, sha256 } from "./tokens.ts";

// Auth.js names its database-session cookie this way; the __Secure- form is used over https.
export const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"];

const userSelect = { id: true, email: true, name: true, isAdmin: true } as const;
type UserRow = { id: string; email: string; name: string | null; isAdmin: boolean };

function fromUser(user: UserRow, extra: Omit<Caller, "userId" | "email" | "name" | "isAdmin">): Caller {
  return { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin, ...extra };
}

// lastUsedAt is a hint for people, not an audit log: one write a minute per key is plenty.
const LAST_USED_EVERY_MS = 60_000;

/** `lookup` through the process's credential cache (./credential-cache.ts), when it has one. */
async function cached(key: string, lookup: () => Promise<Caller | null>): Promise<Caller | null> {
  const cache = credentialCache();
  if (!cache) return lookup();
  const hit = cache.get(key);
  if (hit) return hit;
  const mark = cache.mark();
  const caller = await lookup();
  if (caller) cache.set(key, caller, mark);
  return caller;
}

export async function resolveApiKey(key: string): Promise<Caller | null> {
  if (!API_KEY_PATTERN.test(key)) return null;
  const hash = sha256(key);
  return cached(`k:${hash}`, () => lookUpApiKey(hash));
}

async function lookUpApiKey(keyHash: string): Promise<Caller | null> {
  const row = await db().apiKey.findUnique({
    where: { keyHash },
    select: { id: true, lastUsedAt: true, user: { select: userSelect } },
  });
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    void db()
      .apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } })
      .catch(() => undefined);
  }
  return fromUser(row.user, { credential: "apiKey", apiKeyId: row.id });
}

export async function resolveDeviceToken(token: string): Promise<Caller | null> {
  if (!DEVICE_TOKEN_PATTERN.test(token)) return null;
  const hash = sha256(token);
  return cached(`d:${hash}`, () => lookUpDeviceToken(hash));
}

async function lookUpDeviceToken(tokenHash: string): Promise<Caller | null> {
  const row = await db().deviceToken.findUnique({
    where: { tokenHash },
    select: { id: true, deviceId: true, todoId: true, expiresAt: true, revokedAt: true, user: { select: userSelect } },
  });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  return fromUser(row.user, { credential: "device", deviceId: row.deviceId, tokenId: row.id, todoScope: row.todoId, expiresAt: row.expiresAt.getTime() });
}

export async function resolveSessionToken(sessionToken: string): Promise<Caller | null> {
  if (!sessionToken || sessionToken.length > 512) return null;
  return cached(`s:${sha256(sessionToken)}`, () => lookUpSession(sessionToken));
}

async function lookUpSession(sessionToken: string): Promise<Caller | null> {
  const row = await db().session.findUnique({
    where: { sessionToken },
    select: { id: true, expires: true, user: { select: userSelect } },
  });
  if (!row || row.expires.getTime() <= Date.now()) return null;
  return fromUser(row.user, { credential: "session", sessionId: row.id, expiresAt: row.expires.getTime() });
}

/** Every value of the named cookies, in the order of `names`. */
export function readCookies(cookieHeader: string | null | undefined, names: string[]): string[] {
  if (!cookieHeader) return [];
  const jar = new Map<string, string>();
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const out: string[] = [];
  for (const name of names) {
    const value = jar.get(name);
    if (!value) continue;
    try {
      out.push(decodeURIComponent(value));
    } catch {
      // an undecodable cookie is no credential
    }
  }
  return out;
}

export function readCookie(cookieHeader: string | null | undefined, names: string[]): string | undefined {
  return readCookies(cookieHeader, names)[0];
}

/** A stale cookie of one name must not hide a valid one of the other. */
async function resolveSessionCookies(cookieHeader: string | null | undefined): Promise<Caller | null> {
  for (const token of readCookies(cookieHeader, SESSION_COOKIES)) {
    const caller = await resolveSessionToken(token);
    if (caller) return caller;
  }
  return null;
}

function bearer(headers: Headers): string | undefined {
  const auth = headers.get("authorization");
  const m = auth?.match(/^Bearer\s+(\S+)\s*$/i);
  return m?.[1];
}

/** The one resolver per base (CONVENTIONS.md "Base paths and credentials"). */
export async function resolveCaller(base: Base, headers: Headers): Promise<Caller | null> {
  switch (base) {
    case "api": {
      const key = headers.get("x-api-key")?.trim() || bearer(headers);
      return key ? resolveApiKey(key) : null;
    }
    case "dst": {
      const token = bearer(headers);
      return token ? resolveDeviceToken(token) : null;
    }
    case "cookie":
      return resolveSessionCookies(headers.get("cookie"));
  }
}

/** Socket.IO handshakes carry `auth.token` (an API key or dst_ token) or the browser's session cookie. */
export async function resolveHandshake(token: unknown, cookieHeader: string | undefined): Promise<Caller | null> {
  if (typeof token === "string" && token) {
    if (token.startsWith("dst_")) return resolveDeviceToken(token);
    return resolveApiKey(token);
  }
  return resolveSessionCookies(cookieHeader);
}
