import { z } from "zod";
import { ZPendingTask } from "../../../lib/schemas/todos.ts";
import { pendingTasks } from "../../services/todos/extras.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "task_getPending",
  method: "GET",
  path: "/tasks/pending",
  tag: "Todos",
  summary: "The user's pending tasks: scheduled messages and proposed todos",
  description:
    "Soonest first.",
  auth: ANY_CREDENTIAL,
  response: z.array(ZPendingTask),
  handler: ({ caller }) => pendingTasks(caller),
});
