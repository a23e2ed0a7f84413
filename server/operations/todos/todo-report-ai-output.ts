import { ZSuccess } from "../../../lib/schemas/common.ts";
import { ZReportAiOutputInput } from "../../../lib/schemas/todos.ts";
import { reportAiOutput } from "../../services/todos/extras.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_reportAiOutput",
  method: "POST",
  path: "/report-ai-output",
  tag: "Todos",
  summary: "Report offensive or unsafe AI output for review",
  description:
    "Needs read access to the todo (404 otherwise, also for a `messageId` that is not one of its messages).",
  auth: ANY_CREDENTIAL,
  errors: ["NOT_FOUND"],
  todoScope: "todo",
  rateLimit: "report",
  body: ZReportAiOutputInput,
  response: ZSuccess,
  handler: ({ caller, body }) => reportAiOutput(caller, body),
});
