import { z } from "zod";
import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoParams, ZTodoBlockIdInput } from "../../../lib/schemas/todos.ts";
import { toggleChecked } from "../../services/todos/blocks.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

const ZBlockParams = ZTodoParams.extend({ blockId: z.string().min(1).max(128) });

export default defineOperation({
  id: "todo_toggleBlockChecked",
  method: "POST",
  path: "/todos/{todoId}/blocks/{blockId}/checked",
  tag: "Todos",
  summary: "Toggle (or set) the checked state of an actionable block",
  description:
    "409 for a block that is not actionable.",
  auth: ANY_CREDENTIAL,
  errors: ["CONFLICT"],
  todoScope: "todo",
  params: ZBlockParams,
  body: ZTodoBlockIdInput,
  response: ZNull,
  handler: ({ caller, params, body }) => toggleChecked(caller, params.todoId, params.blockId, body.checked),
});
