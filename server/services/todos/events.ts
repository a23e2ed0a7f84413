import type { EventType } from "../../realtime/bus.ts";
import { runtime } from "../../runtime.ts";

/** Publishes a todo-scoped event (after commit) to the project's and the todo's rooms. */
export function publishTodo(type: EventType, todo: { id: string; projectId: string }, data: unknown): void {
  runtime().bus.publish({ type, projectId: todo.projectId, todoId: todo.id, data });
}

export function publishStatus(todo: { id: string; projectId: string }, status: string, previous: string): void {
  if (status !== previous) publishTodo("todo.status", todo, { status, previous });
}
