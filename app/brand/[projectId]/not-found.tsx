import Link from "next/link";

// The API's 404 for a private or missing project (the two are not told apart), with a 404 status.
export default function BrandNotFound() {
  return (
    <section className="card" data-testid="brand-not-found">
      <h1>This brand page is not public or does not exist</h1>
      <p>The link may be wrong, or the project is private.</p>
      <p>
        If you are a member of the project, <Link href="/signin">sign in</Link> to see it.
      </p>
    </section>
  );
}
