import { z } from "zod";
import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoParams, ZTodoBlockSubTodoInput } from "../../../lib/schemas/todos.ts";
import { linkSubTodos } from "../../services/todos/blocks.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

const ZBlockParams = ZTodoParams.extend({ blockId: z.string().min(1).max(128) });

export default defineOperation({
  id: "todo_linkBlockSubTodo",
  method: "POST",
  path: "/todos/{todoId}/blocks/{blockId}/subtodo",
  tag: "Todos",
  summary: "Link sub-agent todos to a block",
  description:
    "Appends to `subTodoIds` in order, without duplicates; several at once. Every id must be a todo the caller can read (404, and nothing is linked, otherwise), and not the todo itself (400).",
  auth: ANY_CREDENTIAL,
  params: ZBlockParams,
  body: ZTodoBlockSubTodoInput,
  response: ZNull,
  handler: ({ caller, params, body }) => linkSubTodos(caller, params.todoId, params.blockId, body.subTodoIds),
});
