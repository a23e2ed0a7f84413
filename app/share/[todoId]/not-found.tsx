import Link from "next/link";

// The API's 404 for a private or missing todo (the two are not told apart), with a 404 status.
export default function NotPublic() {
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
