import type { Metadata } from "next";
import { TodoChat } from "@/components/todo/todo-chat";

export const metadata: Metadata = { title: "Todo · Todo Service" };

// The signed-in layout guards this page; the chat itself loads and streams in the browser.
export default async function TodoPage({ params }: { params: Promise<{ projectId: string; todoId: string }> }) {
  const { projectId, todoId } = await params;
  return <TodoChat key={todoId} projectId={projectId} todoId={todoId} />;
}
