import type { TUserProfileFull } from "../../../lib/schemas/users.ts";
import type { Caller } from "../../auth/caller.ts";
import { notFound } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { projectRole } from "../access.ts";
import { appSettingsFromStored } from "../settings/user-settings.ts";

export async function getProfile(caller: Caller): Promise<TUserProfileFull> {
  const { userId } = caller;
  const user = await db().user.findUnique({ where: { id: userId }, include: { settings: true } });
  if (!user) throw notFound("User");
  // A default project the user lost access to is not offered as a landing place.
  const defaultProjectId = user.defaultProjectId && (await projectRole(caller, user.defaultProjectId)) ? user.defaultProjectId : null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image,
    isAdmin: user.isAdmin,
    defaultProjectId,
    settings: appSettingsFromStored(user.settings?.settings),
    createdAt: user.createdAt.getTime(),
  };
}

/** Finds or creates a user by email (the command line's user:create, and sign-in). */
export async function ensureUser(email: string, opts: { name?: string; isAdmin?: boolean } = {}) {
  const normalized = email.trim().toLowerCase();
  return db().user.upsert({
    where: { email: normalized },
    create: { email: normalized, name: opts.name ?? null, isAdmin: opts.isAdmin ?? false },
    update: {
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      ...(opts.isAdmin ? { isAdmin: true } : {}),
    },
  });
}

/** `npm run user:create`: finds or creates the user and gives them a fresh API key (shown once). */
export async function createUserWithKey(opts: { email: string; name?: string; admin?: boolean }) {
  const { createKeyForUser } = await import("../api-keys/api-keys.ts");
  const user = await ensureUser(opts.email, { name: opts.name, isAdmin: opts.admin });
  // Made an administrator (or renamed): what processes cached of the user's callers is stale.
  if (opts.admin || opts.name !== undefined) await runtime().bus.affect({ kind: "caller.changed", userId: user.id });
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
  const key = await createKeyForUser(user.id, `cli-${stamp}-${Math.random().toString(36).slice(2, 6)}`);
  return { userId: user.id, email: user.email, isAdmin: user.isAdmin, apiKey: key.key };
}
