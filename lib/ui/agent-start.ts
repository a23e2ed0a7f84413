import { call } from "@/lib/api/client";
import type { TMessage, TTodoListItem } from "@/lib/schemas/todos";
import { againSpec } from "@/lib/todo-lifecycle";

type Waiting = Pick<TMessage, "messageId" | "role" | "state" | "content">;

/** The user message a todo without a running agent waits with: the newest one not yet answered. */
export function waitingMessage<M extends Waiting>(messages: readonly M[], opts: { scheduled?: boolean } = {}): M | undefined {
  return messages.findLast((m) => m.role === "user" && (m.state === "PENDING" || (opts.scheduled === true && m.state === "SCHEDULED")));
}

/** Starts the agent on `todoId` with `message` now (a scheduled message is sent at once). */
export function startWith(todoId: string, message: Pick<Waiting, "messageId" | "content">) {
  return call("todo_updateAndStart", { params: { todoId }, body: { messageId: message.messageId, content: message.content } });
}

/**
 * Starts the agent now on a todo's waiting message, read fresh: `messageId` when given (a
 * scheduled message sent early), else the newest message that waits, scheduled ones included.
 */
export async function startWaiting(todoId: string, messageId?: string): Promise<void> {
  const full = await call("todo_get", { params: { todoId }, query: { messageLimit: 50 } });
  const waiting = messageId
    ? full.messages.find((m) => m.messageId === messageId && m.role === "user" && (m.state === "SCHEDULED" || m.state === "PENDING"))
    : waitingMessage(full.messages, { scheduled: true });
  if (!waiting) throw new Error(messageId ? "This message is no longer waiting: it was sent or changed meanwhile." : "Nothing waits for the agent: open the todo and write to it.");
  await startWith(todoId, waiting);
}

/** Runs `todo` again: a new todo from its spec (againSpec), the agent started on it. Resolves to the new todo. */
export function startAgain(todo: TTodoListItem) {
  return call("project_startFromTemplate", { params: { projectId: todo.projectId }, body: { spec: againSpec(todo) } });
}
