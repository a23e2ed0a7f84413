import { z } from "zod";
import { ZProjectFull } from "../../../lib/schemas/projects.ts";
import { listProjects } from "../../services/projects/projects.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_list",
  method: "GET",
  path: "/projects",
  tag: "Projects",
  summary: "Projects the user owns or can access, oldest first",
  description: "An array of every project the caller owns or that is shared with them, each with the caller's `role`.",
  auth: ANY_CREDENTIAL,
  response: z.array(ZProjectFull),
  handler: ({ caller }) => listProjects(caller),
});
