import { call } from "@/lib/api/client";
import type { TMessage } from "@/lib/schemas/todos";

type Waiting = Pick<TMessage, "messageId" | "role" | "state" | "content">;

/** The user message a todo without a running agent waits with: the newest one not yet answered. */
export function waitingMessage<M extends Waiting>(messages: readonly M[], opts: { scheduled?: boolean } = {}): M | undefined {
  return messages.findLast((m) => m.role === "user" && (m.state === "PENDING" || (opts.scheduled === true && m.state === "SCHEDULED")));
}

/** Starts the agent on `todoId` with `message` now (a scheduled message is sent at once). */
export function startWith(todoId: string, message: Pick<Waiting, "messageId" | "content">) {
  return call("todo_updateAndStart", { params: { todoId }, body: { messageId: message.messageId, content: message.content } });
}
