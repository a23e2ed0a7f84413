import { ZTodoParams, ZTodoWorkflow } from "../../../lib/schemas/todos.ts";
import { getWorkflow } from "../../services/todos/extras.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_getWorkflow",
  method: "GET",
  path: "/todos/{todoId}/workflow",
  tag: "Todos",
  summary: "Internal workflow state, for debugging",
  description: "The turn counter, the runner's state and the context summary (todo_updateWorkflow sets it).",
  auth: ANY_CREDENTIAL,
  todoScope: "todo",
  params: ZTodoParams,
  response: ZTodoWorkflow,
  handler: ({ caller, params }) => getWorkflow(caller, params.todoId),
});
