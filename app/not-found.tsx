import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found · Todo Service" };

/** The app's own 404: in its frame, with the ways back. */
export default function NotFound() {
  return (
    <section className="card empty-state" aria-labelledby="not-found-title" data-testid="not-found">
      <p className="muted" style={{ margin: 0, fontSize: "2.5rem", fontWeight: 700 }} aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">This page does not exist</h1>
      <p>The address may be mistyped, or what it pointed to was deleted or never shared with you.</p>
      <p>
        <Link href="/">Go to your projects</Link> · <Link href="/reference">API reference</Link>
      </p>
    </section>
  );
}
