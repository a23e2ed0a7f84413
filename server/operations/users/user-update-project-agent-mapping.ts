import { ZNull } from "../../../lib/schemas/common.ts";
import { ZProjectAgentSelectionInput } from "../../../lib/schemas/settings.ts";
import { updateProjectAgentMapping } from "../../services/users/preferences.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "user_updateProjectAgentMapping",
  method: "POST",
  path: "/users/project-agent-mapping",
  tag: "User",
  summary: "The caller's default agent settings for new todos in one project",
  description:
    "The caller's own preference: read access to the project is enough (404 otherwise). `agentSettings: null` removes it. settings_getProjectSettings shows it as `agentSettings`.",
  errors: ["NOT_FOUND"],
  auth: USER_CREDENTIAL,
  body: ZProjectAgentSelectionInput,
  response: ZNull,
  handler: ({ caller, body }) => updateProjectAgentMapping(caller, body),
});
