import type { Metadata } from "next";
import { TodoChat } from "@/components/todo/todo-chat";
import { cookieGet } from "@/components/shell/cookie-get";
import { truncate } from "@/lib/ui/format";

type Params = { params: Promise<{ projectId: string; todoId: string }> };

/** The window's title names the todo and its project (the chat keeps it current). */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { todoId } = await params;
  const todo = await cookieGet("todo_get", { params: { todoId }, query: { messageLimit: 1 } });
  if (!todo) return { title: "Todo not found · Todo Service" };
  const project = await cookieGet("project_get", { params: { projectId: todo.projectId } });
  return { title: [truncate(todo.content.split("\n", 1)[0] ?? "", 60), project?.name, "Todo Service"].filter(Boolean).join(" · ") };
}

// The signed-in layout guards this page; the chat itself loads and streams in the browser.
export default async function TodoPage({ params }: Params) {
  const { projectId, todoId } = await params;
  return <TodoChat key={todoId} projectId={projectId} todoId={todoId} />;
}
