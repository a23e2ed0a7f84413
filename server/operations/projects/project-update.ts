import { ZNull } from "../../../lib/schemas/common.ts";
import { ZProjectParams, ZProjectUpdateInput } from "../../../lib/schemas/projects.ts";
import { updateProject } from "../../services/projects/projects.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_update",
  method: "PUT",
  path: "/projects/{projectId}",
  tag: "Projects",
  summary: "Change a project's name, description or visibility",
  description: "Owner or editor; `isPublic` is the owner's alone (403 for others). Fields left out keep their value. Publishes `project.updated`.",
  auth: USER_CREDENTIAL,
  params: ZProjectParams,
  body: ZProjectUpdateInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateProject(caller, params.projectId, body),
});
