import { ZLocale, ZTheme, ZTimezone, type TAppSettings, type TUserSettingsUpdateInput } from "../../../lib/schemas/settings.ts";
import type { Caller } from "../../auth/caller.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { checkAgentSettings } from "../../agent/policy.ts";
import { db } from "../../runtime.ts";
import { agentSettingsFromStored, isRecord } from "./stored.ts";
import { lockRow } from "../../db/lock.ts";

export const DEFAULT_APP_SETTINGS: Omit<TAppSettings, "updatedAt"> = {
  theme: "system",
  timezone: "UTC",
  locale: "en",
  emailNotifications: true,
  defaultAgent: null,
};

/** AppSettings from the stored JSON: every field present, a missing or invalid one at its default. */
export function appSettingsFromStored(raw: unknown): TAppSettings {
  const s = isRecord(raw) ? raw : {};
  const theme = ZTheme.safeParse(s.theme);
  const timezone = typeof s.timezone === "string" ? ZTimezone.safeParse(s.timezone) : null;
  const locale = typeof s.locale === "string" ? ZLocale.safeParse(s.locale) : null;
  return {
    theme: theme.success ? theme.data : DEFAULT_APP_SETTINGS.theme,
    timezone: timezone?.success ? timezone.data : DEFAULT_APP_SETTINGS.timezone,
    locale: locale?.success ? locale.data : DEFAULT_APP_SETTINGS.locale,
    emailNotifications: typeof s.emailNotifications === "boolean" ? s.emailNotifications : DEFAULT_APP_SETTINGS.emailNotifications,
    defaultAgent: agentSettingsFromStored(s.defaultAgent),
    updatedAt: typeof s.updatedAt === "number" && Number.isInteger(s.updatedAt) ? s.updatedAt : null,
  };
}

export async function getUserSettings(caller: Caller): Promise<TAppSettings> {
  const { userId } = caller;
  const row = await db().userSettings.findUnique({ where: { userId }, select: { settings: true } });
  return appSettingsFromStored(row?.settings);
}

/** Changes the fields given (at least one, checked by the schema); the others keep their value. */
export async function updateUserSettings(caller: Caller, patch: TUserSettingsUpdateInput): Promise<null> {
  const { userId } = caller;
  checkAgentSettings([patch.defaultAgent, "body.defaultAgent"]);
  const { name, ...rest } = patch;
  const changes = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  await db().$transaction(async (tx) => {
    // Serialises concurrent partial updates of one user, so neither loses the other's fields.
    await lockRow(tx, "User", userId);
    // The name lives on the user (user_profile, shares and teams read it there).
    if (name !== undefined) await tx.user.update({ where: { id: userId }, data: { name } });
    const row = await tx.userSettings.findUnique({ where: { userId }, select: { settings: true } });
    const settings = { ...(isRecord(row?.settings) ? row.settings : {}), ...changes, updatedAt: Date.now() } as Prisma.InputJsonObject;
    await tx.userSettings.upsert({ where: { userId }, create: { userId, settings }, update: { settings } });
  });
  return null;
}
