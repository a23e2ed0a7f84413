import { z } from "zod";
import { ZTodoGroup } from "../../../lib/schemas/groups.ts";
import { ZProjectParams } from "../../../lib/schemas/projects.ts";
import { listGroups } from "../../services/projects/groups.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_groups",
  method: "GET",
  path: "/projects/{projectId}/groups",
  tag: "Projects",
  summary: "The project's todo groups, empty ones included",
  description: "Ordered by `position`, then creation time. Read access.",
  auth: ANY_CREDENTIAL,
  params: ZProjectParams,
  response: z.array(ZTodoGroup),
  handler: ({ caller, params }) => listGroups(caller, params.projectId),
});
