import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTodoAgentSelectionInput, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { updateAgentMapping } from "../../services/todos/extras.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_updateAgentMapping",
  method: "POST",
  path: "/todos/{todoId}/todo-agent-mapping",
  tag: "Todos",
  summary: "Set this todo's agent settings",
  description:
    "Write access.",
  auth: USER_CREDENTIAL,
  params: ZTodoParams,
  body: ZTodoAgentSelectionInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateAgentMapping(caller, params.todoId, body.agentSettings),
});
