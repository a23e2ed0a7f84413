import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoParams, ZTodoUpdateInput } from "../../../lib/schemas/todos.ts";
import { updateTodo } from "../../services/todos/todos.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_update",
  method: "PUT",
  path: "/todos/{todoId}",
  tag: "Todos",
  summary: "Change a todo's content, schedule, assigned agent, group or visibility",
  description:
    "Write access (owner or editor). `isPublic` is the project owner's alone (403 for editors and viewers): `true` makes the todo's public fields readable by anyone at /public/todos/{todoId}. A new `content` also replaces the text of the todo's first message while that message still waits (PENDING or SCHEDULED) with the old text (`message.updated`, after `todo.updated`); a message that ran or was edited itself stays, and a READY or ERROR todo's first message (it has run) is not looked at.",
  auth: USER_CREDENTIAL,
  params: ZTodoParams,
  body: ZTodoUpdateInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateTodo(caller, params.todoId, body),
});
