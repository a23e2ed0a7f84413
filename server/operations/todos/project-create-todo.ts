import { ZProjectParams } from "../../../lib/schemas/projects.ts";
import { ZCreateTodoInput, ZTodo } from "../../../lib/schemas/todos.ts";
import { createTodo } from "../../services/todos/todos.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_createTodo",
  method: "POST",
  path: "/projects/{projectId}/todos",
  tag: "Todos",
  summary: "Create a todo in a project, optionally starting the agent",
  description:
    "The content becomes the first user message. `startProcessing: true` starts a turn (RUNNING); a future `scheduledAt` schedules it (SCHEDULED); otherwise TODO. Needs write access.",
  auth: ANY_CREDENTIAL,
  // 402: billing refuses a new agent turn when nothing is left to spend (docs/api.md "Billing").
  errors: ["PAYMENT_REQUIRED"],
  params: ZProjectParams,
  body: ZCreateTodoInput,
  response: ZTodo,
  handler: ({ caller, params, body }) => createTodo(caller, params.projectId, body),
});
