import { z } from "zod";
import { ZBlock, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";
import { decideShell } from "../../services/todos/shell.ts";

const ZBlockParams = ZTodoParams.extend({ blockId: z.string().min(1).max(128) });

export const ZShellDecisionInput = z
  .object({ approve: z.boolean().describe("true: run the command on the device; false: deny it (the agent is told)") })
  .meta({ id: "ShellDecisionInput" });

export default defineOperation({
  id: "todo_decideShell",
  method: "POST",
  path: "/todos/{todoId}/blocks/{blockId}/decision",
  tag: "Todos",
  summary: "Approve or deny a shell command the agent proposed (a `shell` block)",
  description:
    "Needs write access to the todo, with an API key or a session (never a device or todo-scoped token). Approving sends the command to the device over its bridge connection; the block then shows `state: running` and its `output` as it streams (block.updated), and `done` or `failed` with `exitCode` at the end. A device that is offline makes it `failed` at once. 409 for a block that is not a `shell` block or not `pending` any more.",
  auth: USER_CREDENTIAL,
  errors: ["CONFLICT"],
  params: ZBlockParams,
  body: ZShellDecisionInput,
  response: ZBlock,
  handler: ({ caller, params, body }) => decideShell(caller, params.todoId, params.blockId, body.approve),
});
