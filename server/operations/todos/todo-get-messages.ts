import { ZMessagesPage, ZMessagesQuery, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { getMessages } from "../../services/todos/messages.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_getMessages",
  method: "GET",
  path: "/todos/{todoId}/messages",
  tag: "Todos",
  summary: "A page of messages in chat order",
  description:
    "Omit `before` for the newest page; pass the oldest loaded messageId as `before` for older ones (`nextCursor`). A page also ends early, after at least one message, once it holds 1,000,000 characters of content; `nextCursor` then leads on.",
  auth: ANY_CREDENTIAL,
  todoScope: "todo",
  params: ZTodoParams,
  query: ZMessagesQuery,
  response: ZMessagesPage,
  handler: ({ caller, params, query }) => getMessages(caller, params.todoId, query),
});
