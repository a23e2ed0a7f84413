import type { Metadata } from "next";
import { TodoChat } from "@/components/todo/todo-chat";
import { notFound } from "next/navigation";
import { cookieCall, cookieGet } from "@/components/shell/cookie-get";
import { todoTitle } from "@/lib/ui/format";

type Params = { params: Promise<{ projectId: string; todoId: string }> };

/** The window's title names the todo and its project (the chat keeps it current). */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { todoId } = await params;
  const todo = await cookieGet("todo_get", firstMessage(todoId));
  if (!todo) return { title: "Todo not found · Todo Service" };
  const project = await cookieGet("project_get", { params: { projectId: todo.projectId } });
  return { title: [todoTitle(todo.content), project?.name, "Todo Service"].filter(Boolean).join(" · ") };
}

/** The metadata's read, which the page shares (cookieCall reads once per request). */
const firstMessage = (todoId: string) => ({ params: { todoId }, query: { messageLimit: 1 } });

// The signed-in layout guards this page; the chat itself loads and streams in the browser. A todo
// that does not exist (or that the user may not read) is this page's 404 (not-found.tsx), so the
// chat never asks for it and its room only to hear 404; one deleted later is the chat's to notice.
export default async function TodoPage({ params }: Params) {
  const { projectId, todoId } = await params;
  if ((await cookieCall("todo_get", firstMessage(todoId)))?.status === 404) notFound();
  return <TodoChat key={todoId} projectId={projectId} todoId={todoId} />;
}
