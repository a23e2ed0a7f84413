import { ZNull } from "../../../lib/schemas/common.ts";
import { ZProjectIdInput } from "../../../lib/schemas/projects.ts";
import { setDefaultProject } from "../../services/users/preferences.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "user_setDefaultProject",
  method: "POST",
  path: "/users/default-project",
  tag: "User",
  summary: "Set the project the user lands on at `/`",
  description: "Any project the caller can read (owned, shared, or their team's shared project); 404 otherwise. user_profile shows it as `defaultProjectId`.",
  errors: ["NOT_FOUND"],
  auth: USER_CREDENTIAL,
  body: ZProjectIdInput,
  response: ZNull,
  handler: ({ caller, body }) => setDefaultProject(caller, body.projectId),
});
