import { ZAppSettings } from "../../../lib/schemas/settings.ts";
import { getUserSettings } from "../../services/settings/user-settings.ts";
import { ANY_CREDENTIAL, defineOperation } from "../define.ts";

export default defineOperation({
  id: "settings_getUserSettings",
  method: "GET",
  path: "/settings/user",
  tag: "Settings",
  summary: "The caller's settings, every field filled (defaults where never set)",
  auth: ANY_CREDENTIAL,
  response: ZAppSettings,
  handler: ({ caller }) => getUserSettings(caller.userId),
});
