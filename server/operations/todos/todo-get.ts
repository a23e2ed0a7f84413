import { ZTodo, ZTodoGetQuery, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { getTodo } from "../../services/todos/todos.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_get",
  method: "GET",
  path: "/todos/{todoId}",
  tag: "Todos",
  summary: "Get a todo with its messages and blocks",
  description:
    "Read access (owner or through project sharing). Only the newest `messageLimit` messages (default 50, larger than 200 is clamped); `hasMoreMessages` tells whether older ones exist (todo_getMessages with `before` pages them).",
  auth: ANY_CREDENTIAL,
  todoScope: "todo",
  params: ZTodoParams,
  query: ZTodoGetQuery,
  response: ZTodo,
  handler: ({ caller, params, query }) => getTodo(caller, params.todoId, query.messageLimit),
});
