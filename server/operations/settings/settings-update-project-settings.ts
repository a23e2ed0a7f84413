import { ZNull } from "../../../lib/schemas/common.ts";
import { ZProjectParams } from "../../../lib/schemas/projects.ts";
import { ZProjectSettingsUpdateInput } from "../../../lib/schemas/settings.ts";
import { updateProjectSettings } from "../../services/settings/project-settings.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "settings_updateProjectSettings",
  method: "PUT",
  path: "/settings/projects/{projectId}",
  tag: "Settings",
  summary: "Change some of a project's settings",
  description:
    "At least one field; fields left out keep their value. `brandMarkdown` is at most 100 KB; `defaultGroupSlug` must name an existing group (404 otherwise) or be null. Write access (owner or editor); `agentDefaults` is the owner's alone (403 for editors and viewers), since it applies to every member's new todos. Publishes `project.updated` with `data.action` `settings`.",
  auth: USER_CREDENTIAL,
  params: ZProjectParams,
  body: ZProjectSettingsUpdateInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateProjectSettings(caller, params.projectId, body),
});
