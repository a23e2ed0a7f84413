import type { Server } from "socket.io";
import { log } from "../log.ts";
import type { TMessage } from "../../lib/schemas/todos.ts";
import { publicMessageOf } from "../services/todos/serialize.ts";
import type { AppEvent, EventType, Room } from "./bus.ts";

// Public todos, live (docs/api.md "Real-time"): whoever has a share link may follow a public todo
// without a credential: `auth.subscribe: [{kind: "publicTodo", id}]` in the handshake
// (server/realtime/handshake-subscribe.ts) joins `public:<todoId>` while the todo is public. That
// room hears only what todo_getPublic would show: its user and assistant messages as PublicMessage
// (`message.created` / `message.updated`, picked by serialize.ts publicMessageOf, as the read picks
// them), the reply's deltas (`message.delta` {messageId, delta, offset}), and for any other change
// one signal, `publicTodo.changed` with `data: {}`, after which the viewer reads todo_getPublic
// again. Never a project, a system message, usage, a block's private content or the private
// event's data. Only events of a todo that is public reach the room (AppEvent.toPublic, carried
// by the publisher, server/services/todos/events.ts): a private todo's events cost no room emit,
// which with the Redis adapter is one PUBLISH each.

export const PUBLIC_CHANGED: EventType = "publicTodo.changed";

/** Events that may change what todo_getPublic answers, heard as `publicTodo.changed`. */
const CHANGES = new Set<EventType>(["todo.updated", "todo.status", "todo.deleted", "block.updated"]);

export const publicRoom = (todoId: string): Room => `public:${todoId}`;
export const publicProjectRoom = (projectId: string): Room => `public-project:${projectId}`;

function dataOf(event: AppEvent): Record<string, unknown> {
  return event.data && typeof event.data === "object" ? (event.data as Record<string, unknown>) : {};
}

/** What the room `public:<todoId>` hears: the envelope has no projectId, and data only what the public read shows. */
export type PublicEnvelope = { type: EventType; id: string; at: number; todoId: string; data: Record<string, unknown> };

/** The public part of an event's data, or null when the public view shows nothing of it. */
function publicData(event: AppEvent): { type: EventType; data: Record<string, unknown> } | null {
  const data = dataOf(event);
  switch (event.type) {
    case "message.delta":
      // The streamed reply: its text is the assistant message's content, as the public read shows it.
      if (typeof data.messageId !== "string" || typeof data.delta !== "string") return null;
      return { type: event.type, data: { messageId: data.messageId, delta: data.delta, offset: data.offset } };
    case "message.created":
    case "message.updated": {
      // System messages are never public: their changes change nothing a public viewer reads.
      const message = publicMessageOf(data as unknown as TMessage);
      return message ? { type: event.type, data: message } : null;
    }
    default:
      return CHANGES.has(event.type) ? { type: PUBLIC_CHANGED, data: {} } : null;
  }
}

/** What an event sends to the todo's public viewers, and whether the todo stops being public with it. */
export function publicSignal(event: AppEvent): { room: Room; envelope: PublicEnvelope; ends: boolean } | null {
  if (!event.todoId || !event.toPublic) return null;
  const sent = publicData(event);
  if (!sent) return null;
  const ends = event.type === "todo.deleted" || (event.type === "todo.updated" && dataOf(event).isPublic === false);
  return { room: publicRoom(event.todoId), envelope: { type: sent.type, id: event.id, at: event.at, todoId: event.todoId, data: sent.data }, ends };
}

/** Sends an event's public part; a todo made private or deleted then loses its public viewers. */
export function sendPublicSignal(io: Server, event: AppEvent): void {
  if (event.type === "project.deleted" && event.projectId) {
    void projectGone(io, event).catch((err: unknown) => log.error("public viewers of a deleted project", { error: String(err) }));
    return;
  }
  const signal = publicSignal(event);
  if (!signal) return;
  io.to(signal.room).emit(signal.envelope.type, signal.envelope);
  if (signal.ends) io.in(signal.room).socketsLeave(signal.room);
}

/** A project's todos go with it without a todo.deleted each: its public viewers hear it for the todo each one watches. */
async function projectGone(io: Server, event: AppEvent): Promise<void> {
  const projectId = event.projectId!;
  const room = publicProjectRoom(projectId);
  for (const socket of await io.in(room).fetchSockets()) {
    // SocketData.publicTodos (socket-data.ts, which imports what imports this file).
    const watched = (socket.data as { publicTodos?: Record<string, string> } | undefined)?.publicTodos ?? {};
    for (const [todoId, inProject] of Object.entries(watched)) {
      if (inProject !== projectId) continue;
      socket.emit(PUBLIC_CHANGED, { type: PUBLIC_CHANGED, id: event.id, at: event.at, todoId, data: {} });
      socket.leave(publicRoom(todoId));
    }
  }
  io.in(room).socketsLeave(room);
}
