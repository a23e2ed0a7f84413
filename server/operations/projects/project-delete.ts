import { ZNull } from "../../../lib/schemas/common.ts";
import { ZProjectIdInput, ZProjectParams } from "../../../lib/schemas/projects.ts";
import { deleteProject } from "../../services/projects/projects.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_delete",
  method: "DELETE",
  path: "/projects/{projectId}",
  tag: "Projects",
  summary: "Delete a project and all its todos permanently",
  description: "Owner only (403 for sharees). The body may repeat projectId; a different one is 400 and deletes nothing.",
  auth: USER_CREDENTIAL,
  params: ZProjectParams,
  body: ZProjectIdInput,
  response: ZNull,
  handler: ({ caller, params }) => deleteProject(caller, params.projectId),
});
