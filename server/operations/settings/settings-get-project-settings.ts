import { ZProjectParams } from "../../../lib/schemas/projects.ts";
import { ZProjectSettingsFull } from "../../../lib/schemas/settings.ts";
import { getProjectSettings } from "../../services/settings/project-settings.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "settings_getProjectSettings",
  method: "GET",
  path: "/settings/projects/{projectId}",
  tag: "Settings",
  summary: "A project's settings, with the caller's own agent settings for it",
  description: "Read access (404 otherwise).",
  auth: ANY_CREDENTIAL,
  params: ZProjectParams,
  response: ZProjectSettingsFull,
  handler: ({ caller, params }) => getProjectSettings(caller, params.projectId),
});
