import Link from "next/link";

/** A todo that does not exist, that the user may not read, or that was deleted while open; with the way back. */
export function TodoGone({ projectId, deleted = false }: { projectId: string; deleted?: boolean }) {
  return (
    <section className="card" data-testid="todo-not-found">
      <h1>{deleted ? "This todo was deleted" : "Todo not found"}</h1>
      <p>{deleted ? "It is gone, with its messages." : "It does not exist, or you do not have access to it."}</p>
      <p>
        <Link href={`/projects/${encodeURIComponent(projectId)}`}>Back to the project</Link> · <Link href="/">Home</Link>
      </p>
    </section>
  );
}
