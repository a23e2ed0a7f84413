import { ZTodo, ZTodoGetQuery, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { getTodo } from "../../services/todos/todos.ts";
import { defineOperation } from "../define.ts";

export default defineOperation({
  id: "todo_getPublic",
  method: "GET",
  path: "/public/todos/{todoId}",
  tag: "Todos",
  summary: "A public todo, read-only, without credential",
  description:
    "Returns the todo only if it is public; a private one answers exactly like a missing one (404).",
  auth: "none",
  params: ZTodoParams,
  query: ZTodoGetQuery,
  response: ZTodo,
  handler: ({ params, query }) => getTodo(null, params.todoId, query.messageLimit, { publicOnly: true }),
});
