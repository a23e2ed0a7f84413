import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoIdInput, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { deleteTodo } from "../../services/todos/todos.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_delete",
  method: "DELETE",
  path: "/todos/{todoId}",
  tag: "Todos",
  summary: "Delete a todo and its messages permanently",
  description:
    "Write access. The body may repeat todoId; a different one is 400 and deletes nothing.",
  auth: USER_CREDENTIAL,
  params: ZTodoParams,
  body: ZTodoIdInput,
  response: ZNull,
  handler: ({ caller, params }) => deleteTodo(caller, params.todoId),
});
