import { ZAppSettings } from "../../../lib/schemas/settings.ts";
import { getUserSettings } from "../../services/settings/user-settings.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "settings_getUserSettings",
  method: "GET",
  path: "/settings/user",
  tag: "Settings",
  summary: "The caller's settings, every field filled (defaults where never set)",
  description: "theme, timezone, locale, email notifications and the default agent; fields never set read as their defaults.",
  auth: ANY_CREDENTIAL,
  response: ZAppSettings,
  handler: ({ caller }) => getUserSettings(caller),
});
