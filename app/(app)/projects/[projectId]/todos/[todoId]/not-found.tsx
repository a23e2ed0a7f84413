"use client";

import { useParams } from "next/navigation";
import { TodoGone } from "@/components/todo/todo-gone";

// The page's own 404 (page.tsx calls notFound() when todo_get answers 404), in the app's frame; a
// not-found page gets no params, so the way back reads the project from the address.
export default function NotFound() {
  const { projectId } = useParams<{ projectId: string }>();
  return <TodoGone projectId={projectId} />;
}
