import { ZAddMessageInput, ZMessage, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { addMessage } from "../../services/todos/messages.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_addMessage",
  method: "POST",
  path: "/todos/{todoId}/messages",
  tag: "Todos",
  summary: "Add a user message, starting the agent now or scheduling it",
  description:
    "Immediate processing starts a turn on a TODO, READY, DONE or ERROR todo and waits (PENDING) behind a RUNNING, SCHEDULED or PAUSED one. A future `scheduledAt` schedules the message. 409 on CANCELLED or PROPOSED todos.",
  auth: ANY_CREDENTIAL,
  // 402: billing refuses a new agent turn when nothing is left to spend (docs/api.md "Billing").
  errors: ["CONFLICT", "PAYMENT_REQUIRED"],
  todoScope: "todo",
  params: ZTodoParams,
  body: ZAddMessageInput,
  response: ZMessage,
  handler: ({ caller, params, body }) => addMessage(caller, params.todoId, body),
});
