import Link from "next/link";

/** A private or missing todo (the API does not tell them apart): the share link's 404, also when it turns private while open. */
export function NotPublic() {
  return (
    <section className="card" data-testid="not-public">
      <h1>This todo is not public or does not exist</h1>
      <p>The link may be wrong, or its owner made the todo private.</p>
      <p>
        If it is yours, <Link href="/signin">sign in</Link> to see it.
      </p>
    </section>
  );
}
