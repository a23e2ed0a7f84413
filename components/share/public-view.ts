import type { TBlock, TMessage, TPublicMessage, TPublicTodo, TTodo } from "@/lib/schemas/todos";

// The public todo as the chat's code takes it: the share page folds its reads and live events
// with the chat's own merge rules (lib/ui/todo-chat-state.ts) and shows messages with the chat's
// MessageItem. What the public todo does not carry is neutral here (no owner, project, schedule,
// usage or sub-todos): none of it is ever shown on the share page.

/** The read-only message view of a public message. */
export function asMessageView(todoId: string, m: TPublicMessage): TMessage {
  const blocks: TBlock[] = m.blocks.map((b) => ({ ...b, todoId, subTodoIds: [], createdAt: m.createdAt, updatedAt: m.createdAt }));
  return { ...m, todoId, authorId: null, scheduledAt: null, usage: null, updatedAt: m.createdAt, blocks };
}

/** The public todo as the chat state's `loaded` takes a todo. */
export function asTodoView(todo: TPublicTodo): TTodo {
  const messages = todo.messages.map((m) => asMessageView(todo.id, m));
  return {
    id: todo.id,
    projectId: "",
    userId: "",
    groupId: null,
    groupSlug: null,
    content: todo.content,
    status: todo.status,
    scheduledAt: null,
    assignedAgent: null,
    agentSettingsId: null,
    businessContextId: null,
    agentSettings: null,
    isPublic: true,
    metadata: {},
    lastActivityAt: todo.updatedAt,
    createdAt: todo.createdAt,
    updatedAt: todo.updatedAt,
    messages,
    blocks: messages.flatMap((m) => m.blocks),
    hasMoreMessages: todo.hasMoreMessages,
  };
}
