import type { Server } from "socket.io";
import { log } from "../log.ts";
import type { AppEvent, EventType, Room } from "./bus.ts";

// Public todos, live (docs/api.md "Real-time"): whoever has a share link may hear, without a
// credential, that the public todo changed: `auth.subscribe: [{kind: "publicTodo", id}]` in the
// handshake (server/realtime/handshake-subscribe.ts) joins `public:<todoId>` while the todo is
// public. What reaches that room is one signal, `publicTodo.changed` with `data: {}`: no project,
// no message, no status, nothing of the private event it stands for. The viewer then reads the
// todo again through todo_getPublic, which decides what is public (serialize.ts publicContent),
// so the live page never shows more than the public read returns.

export const PUBLIC_CHANGED: EventType = "publicTodo.changed";

/** Events that may change what todo_getPublic answers. */
const CHANGES = new Set<EventType>(["todo.updated", "todo.status", "todo.deleted", "message.created", "message.updated", "block.updated"]);

export const publicRoom = (todoId: string): Room => `public:${todoId}`;
export const publicProjectRoom = (projectId: string): Room => `public-project:${projectId}`;

function dataOf(event: AppEvent): Record<string, unknown> {
  return event.data && typeof event.data === "object" ? (event.data as Record<string, unknown>) : {};
}

/** The signal an event sends to the todo's public viewers, and whether the todo stops being public with it. */
export function publicSignal(event: AppEvent): { room: Room; envelope: { type: EventType; id: string; at: number; todoId: string; data: Record<string, never> }; ends: boolean } | null {
  if (!event.todoId || !CHANGES.has(event.type)) return null;
  const data = dataOf(event);
  // System messages are never public: their changes change nothing a public viewer reads.
  if ((event.type === "message.created" || event.type === "message.updated") && data.role === "system") return null;
  const ends = event.type === "todo.deleted" || (event.type === "todo.updated" && data.isPublic === false);
  return { room: publicRoom(event.todoId), envelope: { type: PUBLIC_CHANGED, id: event.id, at: event.at, todoId: event.todoId, data: {} }, ends };
}

/** Sends an event's public signal; a todo made private or deleted then loses its public viewers. */
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
