import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoParams, ZWorkflowUpdateInput } from "../../../lib/schemas/todos.ts";
import { updateWorkflow } from "../../services/todos/extras.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_updateWorkflow",
  method: "PUT",
  path: "/todos/{todoId}/workflow",
  tag: "Todos",
  summary: "Update the workflow state",
  description:
    "Setting `contextSummaryUsed=true` marks the pending context summary as used.",
  auth: ANY_CREDENTIAL,
  todoScope: "todo",
  params: ZTodoParams,
  body: ZWorkflowUpdateInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateWorkflow(caller, params.todoId, body),
});
