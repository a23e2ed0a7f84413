import { ZProjectMembers, ZProjectParams } from "../../../lib/schemas/projects.ts";
import { getMembers } from "../../services/projects/projects.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_getMembers",
  method: "GET",
  path: "/projects/{projectId}/members",
  tag: "Projects",
  summary: "List the people who can read a project",
  description:
    "The owner, the users it is shared with (their role) and, for a team's shared project, the team's members (editor), each with name and email: who a message's `authorId` names. Any member may read it, a viewer too; 404 when the project does not exist or the caller has no access.",
  auth: USER_CREDENTIAL,
  params: ZProjectParams,
  response: ZProjectMembers,
  handler: ({ caller, params }) => getMembers(caller, params.projectId),
});
