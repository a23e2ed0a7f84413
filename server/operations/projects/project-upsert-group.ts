import { ZProjectGroupParams, ZProjectGroupUpsertInput, ZTodoGroup } from "../../../lib/schemas/groups.ts";
import { upsertGroup } from "../../services/projects/groups.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_upsertGroup",
  method: "PUT",
  path: "/projects/{projectId}/groups/{slug}",
  tag: "Projects",
  summary: "Create a todo group, or rename (and move) it",
  description:
    "`slug` is 1–64 lower-case letters, digits or hyphens, starting with a letter or digit. Without `position` a new group goes after the last one and an existing group keeps its place. Write access. Publishes `project.updated` with `data.action` `group`.",
  auth: USER_CREDENTIAL,
  params: ZProjectGroupParams,
  body: ZProjectGroupUpsertInput,
  response: ZTodoGroup,
  handler: ({ caller, params, body }) => upsertGroup(caller, params.projectId, params.slug, body),
});
