import { timingSafeEqual } from "node:crypto";
import type { Caller } from "../../auth/caller.ts";
import { DEVICE_SECRET_PATTERN, newDeviceSecret, newDeviceToken, sha256 } from "../../auth/tokens.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { ApiError } from "../../http/errors.ts";
import { db } from "../../runtime.ts";
import { getTodoOrThrow } from "../access.ts";
import { normaliseWorkspacePaths } from "./workspace-paths.ts";
import { publishDevice } from "./gone.ts";

// The one place dst_ tokens are minted: device tokens (bridge login, enroll-self, the exchange)
// and todo-scoped mayfly tokens. server/auth/resolve.ts reads them back; only hashes are stored.

export const DEVICE_TOKEN_TTL_MS = 60 * 60_000;
export const MAYFLY_TOKEN_TTL_MS = 15 * 60_000;

type Tx = Prisma.TransactionClient;

async function mintDeviceToken(tx: Tx, userId: string, deviceId: string): Promise<{ apiToken: string; expiresAt: number }> {
  const apiToken = newDeviceToken();
  const expiresAt = new Date(Date.now() + DEVICE_TOKEN_TTL_MS);
  await tx.deviceToken.create({ data: { userId, deviceId, kind: "device", tokenHash: sha256(apiToken), expiresAt } });
  return { apiToken, expiresAt: expiresAt.getTime() };
}

/** A new bridge device with its secret (shown once) and a first dst_ token. */
export async function createDeviceWithCredentials(tx: Tx, userId: string, name: string, workspacePaths: string[] = []) {
  const secret = newDeviceSecret();
  const device = await tx.device.create({ data: { userId, name, kind: "bridge", secretHash: sha256(secret), workspacePaths } });
  const token = await mintDeviceToken(tx, userId, device.id);
  return { device: { id: device.id, secret }, ...token };
}

/** POST /cli/device/enroll-self: the calling user's session or key becomes a device. */
export async function enrollSelf(caller: Caller, input: { name?: string; workspacePaths?: string[] }) {
  const paths = normaliseWorkspacePaths(input.workspacePaths ?? []);
  const creds = await db().$transaction((tx) => createDeviceWithCredentials(tx, caller.userId, input.name ?? "bridge", paths));
  publishDevice("device.created", caller.userId, creds.device.id);
  return creds;
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** POST /cli/device/token: deviceId + deviceSecret → a fresh dst_ token. Any mismatch is the same 401. */
export async function exchangeDeviceSecret(deviceId: string, deviceSecret: string) {
  const refused = new ApiError("UNAUTHORIZED", "Unknown device or wrong secret");
  if (!DEVICE_SECRET_PATTERN.test(deviceSecret)) throw refused;
  const device = await db().device.findUnique({ where: { id: deviceId }, select: { id: true, userId: true, secretHash: true, kind: true } });
  if (!device || device.kind !== "bridge" || !sameHash(device.secretHash, sha256(deviceSecret))) throw refused;
  return db().$transaction(async (tx) => {
    // Expired tokens of this device are no use to anyone: sweep them as new ones are made.
    await tx.deviceToken.deleteMany({ where: { deviceId: device.id, expiresAt: { lt: new Date() } } });
    return mintDeviceToken(tx, device.userId, device.id);
  });
}

/** POST /cli/mayfly/token: a dst_ token for one todo (write access needed), 15 minutes. */
export async function issueMayflyToken(caller: Caller, todoId: string) {
  await getTodoOrThrow(caller, todoId, "write");
  const apiToken = newDeviceToken();
  const expiresAt = new Date(Date.now() + MAYFLY_TOKEN_TTL_MS);
  await db().deviceToken.create({ data: { userId: caller.userId, kind: "mayfly", tokenHash: sha256(apiToken), todoId, expiresAt } });
  return { apiToken, todoId, expiresAt: expiresAt.getTime() };
}
