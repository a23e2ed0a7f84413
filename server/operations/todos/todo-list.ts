import { ZProjectParams } from "../../../lib/schemas/projects.ts";
import { ZTodoListQuery, ZTodoPage } from "../../../lib/schemas/todos.ts";
import { listTodos } from "../../services/todos/todos.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_list",
  method: "GET",
  path: "/projects/{projectId}/todos",
  tag: "Todos",
  summary: "A page of the project's todos, newest activity first",
  description:
    "`cursor` is the `lastActivityAt` of the last item received. A page never ends inside a group of todos sharing one `lastActivityAt` (it stops before the group, or holds a group larger than `limit` whole), so nothing is lost or repeated.",
  auth: ANY_CREDENTIAL,
  params: ZProjectParams,
  query: ZTodoListQuery,
  response: ZTodoPage,
  handler: ({ caller, params, query }) => listTodos(caller, params.projectId, query),
});
