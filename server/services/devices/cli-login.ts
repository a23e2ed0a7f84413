import { randomBytes } from "node:crypto";
import type { TLoginPoll } from "../../../lib/schemas/devices.ts";
import type { Caller } from "../../auth/caller.ts";
import { formatUserCode, newDeviceCode, newUserCode, sha256 } from "../../auth/tokens.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { createKeyForUser } from "../api-keys/api-keys.ts";
import { createDeviceWithCredentials } from "./credentials.ts";
import { publishDevice } from "./gone.ts";
import { edgeKeyName } from "./edges.ts";

// Device-code login, RFC 8628 in substance (docs/api.md "Devices and the command line").
// Row states: pending → approved | denied; approved → complete by the one poll that mints the
// credential (so no credential is ever stored); "expired" is derived from expiresAt.

export const LOGIN_TTL_MS = 10 * 60_000;
export const POLL_INTERVAL_S = 5;
// A client's timer may fire a little early against our clock; this much is not "too fast".
const POLL_SLACK_MS = 250;

type Client = "cli" | "edge" | "bridge";
type LoginRow = { id: string; clientName: string; deviceName: string | null; status: string; userId: string | null; result: unknown; expiresAt: Date; userCode: string };

const expired = (row: { expiresAt: Date }) => row.expiresAt.getTime() <= Date.now();

export async function initLogin(clientName: Client, name: string | undefined) {
  const code = newDeviceCode();
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    try {
      await db().cliLogin.create({
        data: { codeHash: sha256(code), userCode, clientName, deviceName: name ?? null, expiresAt: new Date(Date.now() + LOGIN_TTL_MS) },
      });
      const shown = formatUserCode(userCode);
      return { code, userCode: shown, url: `${runtime().config.appUrl}/device?code=${shown}`, expiresIn: LOGIN_TTL_MS / 1000, interval: POLL_INTERVAL_S };
    } catch (err) {
      // A user-code collision (2.6e10 codes) is retried with a fresh code; anything else is a bug.
      if (attempt >= 3 || (err as { code?: string }).code !== "P2002") throw err;
    }
  }
}

/** GET /cli/login/poll. Faster than the interval is 429 (RFC 8628 slow_down) with Retry-After. */
export async function pollLogin(code: string): Promise<TLoginPoll> {
  const row = await db().cliLogin.findUnique({ where: { codeHash: sha256(code) } });
  if (!row) throw notFound("Login code");
  const now = Date.now();
  const { count } = await db().cliLogin.updateMany({
    where: { id: row.id, OR: [{ lastPolledAt: null }, { lastPolledAt: { lte: new Date(now - POLL_INTERVAL_S * 1000 + POLL_SLACK_MS) } }] },
    data: { lastPolledAt: new Date(now) },
  });
  if (count === 0) {
    const wait = Math.max(1, Math.ceil(((row.lastPolledAt?.getTime() ?? now) + POLL_INTERVAL_S * 1000 - now) / 1000));
    throw new ApiError("TOO_MANY_REQUESTS", `slow_down: poll at most every ${POLL_INTERVAL_S} s`, { error: "slow_down", retryAfter: wait, interval: POLL_INTERVAL_S }, { "retry-after": String(wait) });
  }
  if (row.status === "complete") throw new ApiError("CONFLICT", "This login code was already used");
  if (row.status === "denied") return { status: "denied" };
  if (expired(row)) return { status: "expired" };
  if (row.status !== "approved" || !row.userId) return { status: "pending" };
  // Exactly one poll wins the approved → complete step and is the only one to get a credential.
  const claimed = await db().cliLogin.updateMany({ where: { id: row.id, status: "approved" }, data: { status: "complete", completedAt: new Date() } });
  if (claimed.count === 0) throw new ApiError("CONFLICT", "This login code was already used");
  return mintFor(row);
}

async function mintFor(row: LoginRow & { userId: string | null }): Promise<TLoginPoll> {
  const userId = row.userId!;
  const label = row.deviceName ?? row.clientName;
  if (row.clientName === "bridge") {
    const creds = await db().$transaction((tx) => createDeviceWithCredentials(tx, userId, label));
    publishDevice("device.created", userId, creds.device.id);
    return { status: "complete", device: creds.device, apiToken: creds.apiToken, expiresAt: creds.expiresAt };
  }
  if (row.clientName === "edge") {
    const edgeId = (row.result as { edgeId?: string } | null)?.edgeId;
    if (!edgeId) throw new Error("edge login approved without an edge");
    const key = await createKeyForUser(userId, edgeKeyName(edgeId));
    return { status: "complete", apiKey: key.key, edgeId };
  }
  // Key names are unique per user: the client's name plus a short random suffix.
  const name = `${row.clientName} ${label === row.clientName ? "login" : label}`.slice(0, 50) + ` ${randomBytes(3).toString("hex")}`;
  const key = await createKeyForUser(userId, name);
  return { status: "complete", apiKey: key.key };
}

function shownStatus(row: LoginRow) {
  if (row.status === "pending" && expired(row)) return "expired" as const;
  return row.status as "pending" | "approved" | "complete" | "denied";
}

function describe(row: LoginRow) {
  return { userCode: formatUserCode(row.userCode), clientName: row.clientName as Client, name: row.deviceName, status: shownStatus(row), expiresAt: row.expiresAt.getTime() };
}

async function byUserCode(userCode: string) {
  const row = await db().cliLogin.findUnique({ where: { userCode } });
  if (!row) throw notFound("Login code");
  return row;
}

/** What the approval page shows: which client asks, under which name, and whether it still can be approved. */
export async function getLoginRequest(_caller: Caller, userCode: string) {
  return describe(await byUserCode(userCode));
}

/** POST /cli/login/approve (signed in): binds the login to the caller. An edge login creates the Edge now. */
export async function decideLogin(caller: Caller, userCode: string, decision: "approved" | "denied") {
  const row = await byUserCode(userCode);
  if (row.status !== "pending") throw new ApiError("CONFLICT", "This login code was already used");
  if (expired(row)) throw new ApiError("CONFLICT", "This login code has expired; start the login again");
  const updated = await db().$transaction(async (tx) => {
    const edge = decision === "approved" && row.clientName === "edge" ? await tx.edge.create({ data: { userId: caller.userId, name: row.deviceName ?? "edge" } }) : null;
    const { count } = await tx.cliLogin.updateMany({
      where: { id: row.id, status: "pending" },
      data: { status: decision, userId: caller.userId, approvedAt: new Date(), ...(edge ? { result: { edgeId: edge.id } } : {}) },
    });
    if (count === 0) throw new ApiError("CONFLICT", "This login code was already used");
    return tx.cliLogin.findUniqueOrThrow({ where: { id: row.id } });
  });
  return describe(updated);
}
