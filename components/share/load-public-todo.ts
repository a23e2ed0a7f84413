import { cache } from "react";
import { ZPublicTodo, type TPublicTodo } from "@/lib/schemas/todos";
import { call } from "@/server/http/bridge";

export type PublicTodoResult = { kind: "ok"; todo: TPublicTodo } | { kind: "not-public" } | { kind: "error"; message: string };

/**
 * todo_getPublic, in process: the request goes through the custom server's one pipeline (as
 * `GET /api/v1/public/todos/{id}` with no credential), so the page answers exactly what the API
 * answers — a private todo is the same 404 as a missing one, and only the public fields
 * (PublicTodo) reach the page — without an HTTP round trip to its own origin. `before` asks for
 * the page of older messages. Cached per request, for the page and its metadata.
 */
export const loadPublicTodo = cache(async (todoId: string, before?: string): Promise<PublicTodoResult> => {
  const res = await call("api", "todo_getPublic", { params: { todoId }, query: { before } });
  if (!res) return { kind: "error", message: "The API is served by the custom server: start it with `npm start` or `npm run dev`." };
  if (res.status === 404) return { kind: "not-public" };
  if (!res.ok) return { kind: "error", message: res.error.message };
  const parsed = ZPublicTodo.safeParse(res.data);
  return parsed.success ? { kind: "ok", todo: parsed.data } : { kind: "error", message: "The todo could not be read." };
});
