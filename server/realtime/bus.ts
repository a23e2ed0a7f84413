import { randomUUID } from "node:crypto";
import type { CredentialRef } from "../auth/caller.ts";

// CONVENTIONS.md "Real-time events": every event is one envelope, its `type` is the Socket.IO event name.
export type EventType =
  | "project.updated"
  | "project.deleted"
  | "todo.created"
  | "todo.updated"
  | "todo.deleted"
  | "todo.status"
  /**
   * The todo's workflow changed (its context summary written, or marked used, by a turn or by
   * todo_updateWorkflow): data is the TodoWorkflow, to the todo's project and todo rooms.
   */
  | "todo.workflow"
  | "message.created"
  | "message.updated"
  | "message.delta"
  | "block.updated"
  | "edge.updated"
  | "device.online"
  | "device.offline"
  /** A device was deleted (data: { deviceId }), also one that was offline: to its user's own connections. */
  | "device.deleted"
  /** A bridge device was enrolled (data: { deviceId }): to its user's own connections. */
  | "device.created"
  /** A device's workspace paths changed (data: { deviceId }): to its user's own connections. */
  | "device.updated"
  /**
   * An API key of the user's was created, deleted or made the default (data: { action, keyId, name },
   * never the key): to the user's own connections, so a keys list follows the CLI, scripts and other tabs.
   */
  | "apiKey.updated"
  /**
   * A memory note was created, changed or deleted (by the note operations or the agent's `remember`):
   * data is the note ({ id, projectId } when deleted). A personal note goes to its author's own
   * connections; a project's note to the project's room and its members' own connections.
   */
  | "note.created"
  | "note.updated"
  | "note.deleted"
  /** A team changed (members, roles, invites, shared project, join domain): to its members' own connections. */
  | "team.updated"
  /**
   * Sent, never published: what an anonymous viewer of a public todo hears (data: {}), in the
   * room `public:<todoId>`, when something of the todo's public view may have changed; they read
   * it again through todo_getPublic (server/realtime/public-todos.ts). Its messages and the
   * reply's deltas reach that room as `message.created` / `message.updated` (data: the
   * PublicMessage) and `message.delta` instead.
   */
  | "publicTodo.changed"
  /** A course bulk mailing's progress (data: { courseId, run }): to every administrator's own connections. */
  | "course.mail";

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
  /**
   * Internal, never sent: a todo event's public viewers may be listening, because the todo is
   * public (as the publisher read it) or this event makes it private. Only such an event reaches
   * the room `public:<todoId>` (server/realtime/public-todos.ts): with the Redis adapter every room
   * emit is one more PUBLISH, and most todos are private.
   */
  toPublic?: boolean;
  data: unknown;
};

export type EventInput = Omit<AppEvent, "id" | "at">;

export type Room =
  | `project:${string}`
  | `todo:${string}`
  | `edge:${string}`
  | `user:${string}`
  | `credential:${CredentialRef}`
  | `public:${string}`
  | `public-project:${string}`;

export type { CredentialRef } from "../auth/caller.ts";

/**
 * Effects on open connections, never sent as events. Published after the change commits, like
 * events; `affect` resolves once every sink has acted (across processes as far as the sink can
 * tell), so a response sent after it cannot race the disconnect.
 * - `credential.revoked`: the credential's connections are disconnected at once.
 * - `access.lost`: the user may no longer read some project (unshared, removed from a team): their
 *   connections leave every project and todo room they may no longer read.
 * - `caller.changed`: what a request knows of the user changed (administrator or not): every
 *   process forgets the user's cached callers (server/auth/credential-cache.ts); connections stay.
 * - `turn.signal`: the todo's running turn, in whichever process, must stop (it left RUNNING), follow its public flag (`public` / `private`), or
 *   write its reply now (`flush`, before a subscriber reads it): server/agent/turn-signals.ts. The
 *   publishing process has delivered it to its own turns; sinks carry it to the other processes.
 */
export type ConnectionEffect =
  | { kind: "credential.revoked"; credential: CredentialRef }
  | { kind: "access.lost"; userId: string }
  | { kind: "caller.changed"; userId: string }
  | { kind: "turn.signal"; todoId: string; signal: "stop" | "flush" | "public" | "private" };

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

/** The envelope as clients receive it (without the internal `audience` and `toPublic`). */
export function envelopeOf(event: AppEvent): Omit<AppEvent, "audience" | "toPublic"> {
  const { audience: _internal, toPublic: _alsoInternal, ...envelope } = event;
  return envelope;
}

type Listener = (event: AppEvent) => void;
type EffectListener = (effect: ConnectionEffect) => Promise<void> | void;

/**
 * The one event bus. Services publish after their transaction commits; sinks (Socket.IO, the
 * agent runner, tests) listen. A failing listener is logged by the sink, never by the publisher.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();
  private readonly effectListeners = new Set<EffectListener>();

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

  /** Never rejects: a sink's failure is the sink's to log, and the write has committed already. */
  async affect(effect: ConnectionEffect): Promise<void> {
    await Promise.allSettled([...this.effectListeners].map(async (listener) => listener(effect)));
  }

  onEffect(listener: EffectListener): () => void {
    this.effectListeners.add(listener);
    return () => this.effectListeners.delete(listener);
  }
}
