import { ZProjectFull, ZProjectParams } from "../../../lib/schemas/projects.ts";
import { getProject } from "../../services/projects/projects.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_get",
  method: "GET",
  path: "/projects/{projectId}",
  tag: "Projects",
  summary: "Get a project with its settings",
  description: "404 when the project does not exist or the caller has no access (the two are indistinguishable).",
  auth: ANY_CREDENTIAL,
  params: ZProjectParams,
  response: ZProjectFull,
  handler: ({ caller, params }) => getProject(caller, params.projectId),
});
