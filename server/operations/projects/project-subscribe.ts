import { ZNull } from "../../../lib/schemas/common.ts";
import { ZProjectIdInput, ZProjectParams } from "../../../lib/schemas/projects.ts";
import { subscribeProject } from "../../services/projects/subscribe.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_subscribe",
  method: "POST",
  path: "/projects/{projectId}/subscribe",
  tag: "Projects",
  summary: "Subscribe a Socket.IO connection to the project's real-time updates",
  description:
    "Pass the connection's id in `X-Socket-Id` (or `socketId` in the body). The connection must be the caller's own. Read access is checked like project_get.",
  auth: ANY_CREDENTIAL,
  errors: ["CONFLICT"],
  rateLimit: "subscribe",
  // Joins the connection named by X-Socket-Id each time; repeating it is already harmless.
  idempotent: false,
  params: ZProjectParams,
  body: ZProjectIdInput,
  response: ZNull,
  handler: ({ caller, params, socketId }) => subscribeProject(caller, params.projectId, socketId),
});
