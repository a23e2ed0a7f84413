import { ZTodo, ZTodoIdInput, ZTodoParams } from "../../../lib/schemas/todos.ts";
import { subscribeTodo } from "../../services/todos/extras.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_subscribe",
  method: "POST",
  path: "/todos/{todoId}/subscribe",
  tag: "Todos",
  summary: "Subscribe a Socket.IO connection to the todo and get the full todo",
  description:
    "Pass the connection's id in `X-Socket-Id` (or `socketId` in the body). The connection joins the todo's room before the todo is read, so no event can slip between the response and the stream; a reply being streamed is written first, so its text here and the `message.delta` events after it join exactly (by `offset`). The todo carries its newest 50 messages; todo_getMessages with `before` pages older ones.",
  auth: ANY_CREDENTIAL,
  errors: ["CONFLICT"],
  todoScope: "todo",
  rateLimit: "subscribe",
  // Joins the connection named by X-Socket-Id each time; repeating it is already harmless.
  idempotent: false,
  params: ZTodoParams,
  body: ZTodoIdInput,
  response: ZTodo,
  handler: ({ caller, params, socketId }) => subscribeTodo(caller, params.todoId, socketId),
});
