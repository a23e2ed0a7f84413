import { z } from "zod";
import { ZAgentSettings } from "./agent.ts";
import { atLeastOne, ZId, ZTimestamp } from "./common.ts";
import { ZGroupSlug } from "./groups.ts";

// ───────────── User settings (AppSettings) ─────────────

export const ZTheme = z.enum(["system", "light", "dark"]);

/** The canonical spelling of an IANA time zone (`europe/berlin` → `Europe/Berlin`), or null if the runtime does not know it. */
export function canonicalTimeZone(value: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The canonical form of a BCP 47 locale (`en-us` → `en-US`), or null when it is not one. */
export function canonicalLocale(value: string): string | null {
  // A 2–3 letter language, then subtags; Intl checks the rest of the grammar.
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(value)) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

export const ZTimezone = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .refine((v) => canonicalTimeZone(v) !== null, "must be an IANA time zone such as Europe/Berlin or UTC")
  .overwrite((v) => canonicalTimeZone(v) ?? v)
  .describe("IANA time zone, e.g. `Europe/Berlin`; stored in its canonical spelling");

export const ZLocale = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(35, "must be at most 35 characters")
  .refine((v) => canonicalLocale(v) !== null, "must be a BCP 47 language tag such as en or de-CH")
  .overwrite((v) => canonicalLocale(v) ?? v)
  .describe("BCP 47 language tag, e.g. `en` or `de-CH`");

export const ZAppSettings = z
  .object({
    theme: ZTheme,
    timezone: z.string().describe("IANA time zone; `UTC` until set"),
    locale: z.string().describe("BCP 47 language tag; `en` until set"),
    emailNotifications: z.boolean().describe("Mail the owner of a todo when its agent replies, stops with an error, or waits for a shell command's approval while they have no connection open (REPLY_MAIL_DELAY_MS later, one mail per todo for replies close together); `true` until set"),
    defaultAgent: ZAgentSettings.nullable().describe("The user's default agent settings"),
    updatedAt: ZTimestamp.nullable().describe("Last change of these settings; null until the first change"),
  })
  .meta({ id: "AppSettings" });

export const ZUserSettingsUpdateInput = atLeastOne(
  z.object({
    theme: ZTheme.optional(),
    timezone: ZTimezone.optional(),
    locale: ZLocale.optional(),
    emailNotifications: z.boolean().optional(),
    defaultAgent: ZAgentSettings.nullable().optional().describe("null clears it"),
    name: z.string().trim().min(1).max(100).nullable().optional().describe("Your name as others see it (shared projects, teams); `user_profile` reads it back; null clears it"),
  }),
  "give at least one of theme, timezone, locale, emailNotifications, defaultAgent, name",
).meta({ id: "UserSettingsUpdateInput" });

// ───────────── Project settings ─────────────

/** brandMarkdown limit: 100 KB of UTF-8. */
export const MAX_BRAND_MARKDOWN_BYTES = 100 * 1024;

export const ZBrandMarkdown = z
  .string()
  .refine((v) => new TextEncoder().encode(v).length <= MAX_BRAND_MARKDOWN_BYTES, `must be at most ${MAX_BRAND_MARKDOWN_BYTES} bytes of UTF-8 (100 KB)`)
  .describe("Markdown of the project's brand page, at most 100 KB (UTF-8); project_getBrand serves it");

export const ZProjectSettingsFull = z
  .object({
    projectId: ZId,
    brandMarkdown: z.string(),
    defaultGroupSlug: z.string().nullable().describe("The slug of the project's default group"),
    agentDefaults: ZAgentSettings.nullable().describe("The project's default agent settings, shared by everyone on it"),
    agentSettings: ZAgentSettings.nullable().describe("The caller's own agent settings for this project (user_updateProjectAgentMapping)"),
    updatedAt: ZTimestamp.describe("The project's last change"),
  })
  .meta({ id: "ProjectSettingsFull" });

export const ZProjectSettingsUpdateInput = atLeastOne(
  z.object({
    brandMarkdown: ZBrandMarkdown.optional(),
    defaultGroupSlug: ZGroupSlug.nullable().optional().describe("Must name an existing group of the project (404 otherwise); null clears it"),
    agentDefaults: ZAgentSettings.nullable().optional().describe("null clears it; the project owner's alone (403 for editors and viewers)"),
  }),
  "give at least one of brandMarkdown, defaultGroupSlug, agentDefaults",
).meta({ id: "ProjectSettingsUpdateInput" });

// ───────────── Per-user, per-project agent mapping ─────────────

export const ZProjectAgentSelectionInput = z
  .object({
    projectId: ZId,
    agentSettings: ZAgentSettings.nullable().describe("The caller's own default agent settings for the project; null removes them"),
  })
  .meta({ id: "ProjectAgentSelectionInput" });

export type TAppSettings = z.infer<typeof ZAppSettings>;
export type TUserSettingsUpdateInput = z.output<typeof ZUserSettingsUpdateInput>;
export type TProjectSettingsFull = z.infer<typeof ZProjectSettingsFull>;
export type TProjectSettingsUpdateInput = z.output<typeof ZProjectSettingsUpdateInput>;
export type TProjectAgentSelectionInput = z.output<typeof ZProjectAgentSelectionInput>;
