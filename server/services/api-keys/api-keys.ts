import type { TApiKey } from "../../../lib/schemas/api-keys.ts";
import type { Caller } from "../../auth/caller.ts";
import { maskKey, newApiKey, sha256 } from "../../auth/tokens.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { lockRow } from "../../db/lock.ts";

/** The name the automatically created default key gets; people cannot take it for their own keys. */
export const DEFAULT_KEY_NAME = "default";

type KeyRow = { id: string; name: string; last4: string; isDefault: boolean; createdAt: Date; lastUsedAt: Date | null };

function toApiKey(row: KeyRow, fullKey?: string): TApiKey {
  return {
    id: row.id,
    name: row.name,
    key: fullKey ?? maskKey(row.last4),
    isDefault: row.isDefault,
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.getTime() : null,
  };
}

type Tx = Prisma.TransactionClient;

/** After the change commits: `apiKey.updated` to the user's own connections (docs/api.md "API keys"); never the key itself. */
function publishKeyChange(userId: string, action: "created" | "deleted" | "default", key: { id: string; name: string }): void {
  runtime().bus.publish({ type: "apiKey.updated", userId, data: { action, keyId: key.id, name: key.name } });
}

/**
 * After a key's row is deleted (apiKey_delete, edge_delete): its open connections close now, in
 * every server process, before the caller hears "deleted"; then its user's lists hear it.
 */
export async function keyGone(userId: string, key: { id: string; name: string }): Promise<void> {
  await runtime().bus.affect({ kind: "credential.revoked", credential: `apiKey:${key.id}` });
  publishKeyChange(userId, "deleted", key);
}

/** Serialises key changes of one user (default flag, unique names) on the user's row. */
async function lockUser(tx: Tx, userId: string): Promise<void> {
  await lockRow(tx, "User", userId);
}

async function insertKey(tx: Tx, userId: string, name: string, makeDefault: boolean): Promise<TApiKey> {
  const key = newApiKey();
  const row = await tx.apiKey.create({
    data: { userId, name, keyHash: sha256(key), last4: key.slice(-4), isDefault: makeDefault },
  });
  return toApiKey(row, key);
}

export async function listApiKeys(caller: Caller): Promise<TApiKey[]> {
  const { userId } = caller;
  const rows = await db().apiKey.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((r) => toApiKey(r));
}

/** Creates a key and returns its full value, the only time it is ever shown. The first key becomes the default. */
export async function createApiKey(caller: Caller, name: string): Promise<TApiKey> {
  return createKeyForUser(caller.userId, name);
}

/**
 * createApiKey for the operator's paths that have no caller (`npm run user:create` through
 * server/control.ts, test set-up); `allowReservedName` lets them name a key "default".
 */
export async function createKeyForUser(userId: string, name: string, opts: { allowReservedName?: boolean } = {}): Promise<TApiKey> {
  if (name.toLowerCase() === DEFAULT_KEY_NAME && !opts.allowReservedName)
    throw new ApiError("BAD_REQUEST", `The name "${DEFAULT_KEY_NAME}" is reserved for the default key`, {
      issues: [{ path: "body.name", message: "reserved", code: "custom" }],
    });
  const key = await db().$transaction(async (tx) => {
    await lockUser(tx, userId);
    const taken = await tx.apiKey.findUnique({ where: { userId_name: { userId, name } }, select: { id: true } });
    if (taken) throw new ApiError("CONFLICT", `An API key named "${name}" already exists`);
    const hasDefault = (await tx.apiKey.count({ where: { userId, isDefault: true } })) > 0;
    return insertKey(tx, userId, name, !hasDefault);
  });
  publishKeyChange(userId, "created", key);
  return key;
}

export async function getApiKey(caller: Caller, name: string): Promise<TApiKey> {
  const { userId } = caller;
  const row = await db().apiKey.findUnique({ where: { userId_name: { userId, name } } });
  if (!row) throw notFound("API key");
  return toApiKey(row);
}

export async function deleteApiKey(caller: Caller, name: string): Promise<null> {
  const { userId } = caller;
  const row = await db().apiKey.findUnique({ where: { userId_name: { userId, name } }, select: { id: true, name: true } });
  const { count } = row ? await db().apiKey.deleteMany({ where: { id: row.id } }) : { count: 0 };
  if (!row || count === 0) throw notFound("API key");
  await keyGone(userId, row);
  return null;
}

/** The default key; created (and then shown in full, once) when the user has none. */
export async function getDefaultApiKey(caller: Caller): Promise<TApiKey> {
  const { userId } = caller;
  const { key, created } = await db().$transaction(async (tx) => {
    await lockUser(tx, userId);
    const current = await tx.apiKey.findFirst({ where: { userId, isDefault: true } });
    if (current) return { key: toApiKey(current), created: false };
    const names = new Set((await tx.apiKey.findMany({ where: { userId }, select: { name: true } })).map((k) => k.name));
    let name = DEFAULT_KEY_NAME;
    for (let n = 2; names.has(name); n++) name = `${DEFAULT_KEY_NAME}-${n}`;
    return { key: await insertKey(tx, userId, name, true), created: true };
  });
  if (created) publishKeyChange(userId, "created", key);
  return key;
}

export async function setDefaultApiKey(caller: Caller, name: string): Promise<null> {
  const { userId } = caller;
  const target = await db().$transaction(async (tx) => {
    await lockUser(tx, userId);
    const target = await tx.apiKey.findUnique({ where: { userId_name: { userId, name } }, select: { id: true, name: true } });
    if (!target) throw notFound("API key");
    await tx.apiKey.updateMany({ where: { userId, isDefault: true, NOT: { id: target.id } }, data: { isDefault: false } });
    await tx.apiKey.update({ where: { id: target.id }, data: { isDefault: true } });
    return target;
  });
  publishKeyChange(userId, "default", target);
  return null;
}

export async function validateApiKey(caller: Caller) {
  if (!caller.apiKeyId) throw new ApiError("UNAUTHORIZED", "No API key in the request");
  const row = await db().apiKey.findUnique({ where: { id: caller.apiKeyId } });
  if (!row) throw new ApiError("UNAUTHORIZED", "Missing, invalid or expired credential");
  return { valid: true as const, keyId: row.id, name: row.name, isDefault: row.isDefault, userId: caller.userId, email: caller.email };
}
