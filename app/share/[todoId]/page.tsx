import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { loadPublicTodo } from "@/components/share/load-public-todo";
import { LivePublicTodo } from "@/components/share/live-public-todo";
import { todoTitle } from "@/lib/ui/format";

// Rendered on the server, through the API's own pipeline in process (load-public-todo.ts): the
// shared link shows its content without JavaScript and without a credential, and a private todo
// gets exactly the API's answer for it (404, like a missing one). In the browser it then follows
// the todo's changes (live-public-todo.tsx).

type Params = { params: Promise<{ todoId: string }>; searchParams: Promise<{ before?: string | string[] }> };

/** `?before=<messageId>` shows the page of messages before it (the "Older messages" link). */
async function beforeOf(searchParams: Params["searchParams"]): Promise<string | undefined> {
  const before = (await searchParams).before;
  return typeof before === "string" && before !== "" ? before : undefined;
}

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  await connection();
  const result = await loadPublicTodo((await params).todoId, await beforeOf(searchParams));
  if (result.kind !== "ok") return { title: "Shared todo · Todo Service", robots: { index: false } };
  return { title: `${todoTitle(result.todo.content)} · Todo Service` };
}

export default async function SharePage({ params, searchParams }: Params) {
  await connection();
  const { todoId } = await params;
  const before = await beforeOf(searchParams);
  const result = await loadPublicTodo(todoId, before);
  // A page of the conversation is a view of its own: moving to older or newest messages starts afresh.
  if (result.kind === "ok") return <LivePublicTodo key={before ?? "newest"} initial={result.todo} before={before} />;
  if (result.kind === "not-public") notFound();
  return (
    <section className="card" role="alert">
      <h1>Could not load this todo</h1>
      <p className="error">{result.message}</p>
    </section>
  );
}
