// How a page reads the project events it receives (server/realtime/bus.ts "project.updated").

type ProjectEvent = { type: string; projectId?: string; data: unknown };

/**
 * The project an event is about: the envelope's, or, for a team project gained or lost (sent to
 * the user's own room only), the one its data names.
 */
export function eventProjectId(event: ProjectEvent): string | undefined {
  if (event.projectId) return event.projectId;
  const data = (event.data ?? {}) as Record<string, unknown>;
  return event.type === "project.updated" && data.action === "team" && typeof data.projectId === "string" ? data.projectId : undefined;
}

/**
 * Someone's access to the project changed (a share's role, a team project gained or lost); the
 * event names the writer's role, or none, so a page asks again: the reader may have lost access.
 */
export function isAccessChange(event: ProjectEvent): boolean {
  const action = ((event.data ?? {}) as Record<string, unknown>).action;
  return event.type === "project.updated" && (action === "shared" || action === "team");
}
