import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoParams, ZUpdateAndStartMessageInput } from "../../../lib/schemas/todos.ts";
import { updateAndStart } from "../../services/todos/messages.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_updateAndStart",
  method: "POST",
  path: "/todos/{todoId}/update-start",
  tag: "Todos",
  summary: "Edit a message that has not run yet and start the agent on it at once",
  description:
    "The message must be a SCHEDULED or PENDING user message (409 otherwise).",
  auth: ANY_CREDENTIAL,
  // 402: billing refuses a new agent turn when nothing is left to spend (docs/api.md "Billing").
  errors: ["CONFLICT", "PAYMENT_REQUIRED"],
  todoScope: "todo",
  params: ZTodoParams,
  body: ZUpdateAndStartMessageInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateAndStart(caller, params.todoId, body.messageId, body.content),
});
