import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoParams, ZTodoStatusUpdateInput } from "../../../lib/schemas/todos.ts";
import { updateStatus } from "../../services/todos/status.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_updateStatus",
  method: "PATCH",
  path: "/todos/{todoId}/status",
  tag: "Todos",
  summary: "Pause, resume, complete or cancel a todo; accept or dismiss a proposed one",
  description:
    "The lifecycle table of the API reference; any other transition is 409 CONFLICT. A running turn stops at its next step.",
  auth: ANY_CREDENTIAL,
  // 402: billing refuses a new agent turn when nothing is left to spend (docs/api.md "Billing").
  errors: ["CONFLICT", "PAYMENT_REQUIRED"],
  todoScope: "todo",
  params: ZTodoParams,
  body: ZTodoStatusUpdateInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateStatus(caller, params.todoId, body.action),
});
