import { ZProject, ZProjectParams, ZShareProjectInput } from "../../../lib/schemas/projects.ts";
import { shareProject } from "../../services/projects/sharing.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_share",
  method: "POST",
  path: "/projects/{projectId}/share",
  tag: "Projects",
  summary: "Share a project with another user by email",
  description:
    "Owner only (403 for sharees, 404 for strangers). `role` is `editor` (read and write, the default) or `viewer` (read only); sharing again with the same email changes the role. The email is compared case-insensitively; an email without an account is 404, the owner's own email is 400. Publishes `project.updated` with `data.action` `shared`, also to the sharee's own connections.",
  auth: USER_CREDENTIAL,
  rateLimit: "share",
  params: ZProjectParams,
  body: ZShareProjectInput,
  response: ZProject,
  handler: ({ caller, params, body }) => shareProject(caller, params.projectId, body),
});
