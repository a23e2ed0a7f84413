import { randomUUID } from "node:crypto";

// CONVENTIONS.md "Real-time events": every event is one envelope, its `type` is the Socket.IO event name.
export type EventType =
  | "project.updated"
  | "project.deleted"
  | "todo.created"
  | "todo.updated"
  | "todo.deleted"
  | "todo.status"
  | "message.created"
  | "message.updated"
  | "message.delta"
  | "block.updated"
  | "edge.updated"
  | "device.online"
  | "device.offline";

export type AppEvent = {
  type: EventType;
  id: string;
  at: number;
  projectId?: string;
  todoId?: string;
  edgeId?: string;
  /** Delivered to this user's own connections as well (e.g. device status). */
  userId?: string;
  /**
   * Internal, never sent: more users whose own connections get the event (a project's members,
   * so every member's project list follows a rename or delete without subscribing to each project).
   */
  audience?: string[];
  data: unknown;
};

export type EventInput = Omit<AppEvent, "id" | "at">;

export type Room = `project:${string}` | `todo:${string}` | `edge:${string}` | `user:${string}`;

/** The rooms an event fans out to: its project, todo and edge (and owner, for per-user events). */
export function roomsFor(event: AppEvent): Room[] {
  const rooms: Room[] = [];
  if (event.projectId) rooms.push(`project:${event.projectId}`);
  if (event.todoId) rooms.push(`todo:${event.todoId}`);
  if (event.edgeId) rooms.push(`edge:${event.edgeId}`);
  if (event.userId) rooms.push(`user:${event.userId}`);
  for (const userId of event.audience ?? []) if (userId !== event.userId) rooms.push(`user:${userId}`);
  return rooms;
}

/** The envelope as clients receive it (without the internal `audience`). */
export function envelopeOf(event: AppEvent): Omit<AppEvent, "audience"> {
  const { audience: _internal, ...envelope } = event;
  return envelope;
}

type Listener = (event: AppEvent) => void;

/**
 * The one event bus. Services publish after their transaction commits; sinks (Socket.IO, the
 * agent runner, tests) listen. A failing listener is logged by the sink, never by the publisher.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  publish(input: EventInput): AppEvent {
    const event: AppEvent = { ...input, id: randomUUID(), at: Date.now() };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A sink's failure must not undo or fail the write that caused the event.
      }
    }
    return event;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
