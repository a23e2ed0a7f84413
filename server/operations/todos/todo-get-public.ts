import { ZPublicTodo, ZPublicTodoQuery, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { getPublicTodo } from "../../services/todos/todos.ts";
import { defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_getPublic",
  method: "GET",
  path: "/public/todos/{todoId}",
  tag: "Todos",
  summary: "A public todo, read-only, without credential",
  description:
    "Returns the todo only if it is public; a private one answers exactly like a missing one (404). Only its public fields (PublicTodo: content, status, messages and blocks; never the owner, metadata, agent settings, usage or error reasons; only `user` and `assistant` messages; of a `tool_call` block only `{tool, state}`, of a `shell` block only `{state, exitCode}`) and one page of messages: the newest `messageLimit` (default 50, at most 200), or those before `before` (pass `nextCursor`).",
  auth: "none",
  params: ZTodoParams,
  query: ZPublicTodoQuery,
  response: ZPublicTodo,
  handler: ({ params, query }) => getPublicTodo(params.todoId, query),
});
