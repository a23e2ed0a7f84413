import { ZProjectCreateInput, ZProjectFull } from "../../../lib/schemas/projects.ts";
import { createProject } from "../../services/projects/projects.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_create",
  method: "POST",
  path: "/projects",
  tag: "Projects",
  summary: "Create a project owned by the caller",
  description: "The caller becomes its owner. `description` defaults to empty and `isPublic` to false.",
  auth: USER_CREDENTIAL,
  body: ZProjectCreateInput,
  response: ZProjectFull,
  handler: ({ caller, body }) => createProject(caller, body),
});
