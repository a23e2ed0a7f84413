import { ZProjectParams } from "../../../lib/schemas/projects.ts";
import { ZStartFromSpecInput, ZTodo } from "../../../lib/schemas/todos.ts";
import { startFromTemplate } from "../../services/todos/todos.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_startFromTemplate",
  method: "POST",
  path: "/projects/{projectId}/todos/from-template",
  tag: "Todos",
  summary: "Start a todo from a spec (with overrides) or from scratch",
  description:
    "The single accept path. One of `spec` or `content` is required. Started (RUNNING) unless `propose: true`, which creates it PROPOSED and starts nothing.",
  auth: USER_CREDENTIAL,
  // 402: billing refuses a new agent turn when nothing is left to spend (docs/api.md "Billing").
  errors: ["PAYMENT_REQUIRED"],
  params: ZProjectParams,
  body: ZStartFromSpecInput,
  response: ZTodo,
  handler: ({ caller, params, body }) => startFromTemplate(caller, params.projectId, body),
});
