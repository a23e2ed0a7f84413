import { z } from "zod";
import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoParams, ZUpdateMessageInput } from "../../../lib/schemas/todos.ts";
import { updateMessage } from "../../services/todos/messages.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

const ZMessageParams = ZTodoParams.extend({ messageId: z.string().min(1).max(128) });

export default defineOperation({
  id: "todo_updateMessage",
  method: "PATCH",
  path: "/todos/{todoId}/messages/{messageId}",
  tag: "Todos",
  summary: "Edit a scheduled message before it starts",
  description:
    "Only a SCHEDULED message; 409 once it started processing.",
  auth: ANY_CREDENTIAL,
  // 402: billing refuses a new agent turn when nothing is left to spend (docs/api.md "Billing").
  errors: ["CONFLICT", "PAYMENT_REQUIRED"],
  todoScope: "todo",
  params: ZMessageParams,
  body: ZUpdateMessageInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateMessage(caller, params.todoId, params.messageId, body),
});
