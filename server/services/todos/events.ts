import type { EventType } from "../../realtime/bus.ts";
import { runtime } from "../../runtime.ts";

/** A todo as its events need it: where they go, and whether its public viewers may hear them. */
export type PublishedTodo = { id: string; projectId: string; isPublic: boolean };

/**
 * Publishes a todo-scoped event (after commit) to the project's and the todo's rooms, and to its
 * public viewers when the todo is public (server/realtime/public-todos.ts) or `opts.endsPublic`
 * (the event makes it private: its viewers hear that last one). `isPublic` is the todo's flag as
 * the publisher read it: no read per event.
 */
export function publishTodo(type: EventType, todo: PublishedTodo, data: unknown, opts: { endsPublic?: boolean } = {}): void {
  runtime().bus.publish({ type, projectId: todo.projectId, todoId: todo.id, toPublic: todo.isPublic || opts.endsPublic === true, data });
}

export function publishStatus(todo: PublishedTodo, status: string, previous: string): void {
  if (status !== previous) publishTodo("todo.status", todo, { status, previous });
}
