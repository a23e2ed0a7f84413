import { ZNull } from "../../../lib/schemas/common.ts";
import { ZUserSettingsUpdateInput } from "../../../lib/schemas/settings.ts";
import { updateUserSettings } from "../../services/settings/user-settings.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "settings_updateUserSettings",
  method: "PUT",
  path: "/settings/user",
  tag: "Settings",
  summary: "Change some of the caller's settings",
  description: "At least one field; fields left out keep their value. `timezone` must be an IANA time zone, `locale` a BCP 47 tag.",
  auth: USER_CREDENTIAL,
  body: ZUserSettingsUpdateInput,
  response: ZNull,
  handler: ({ caller, body }) => updateUserSettings(caller, body),
});
