"use client";

import { useEffect, useRef } from "react";
import Link from "next/link";
import { forgetAnswers } from "@/lib/api/swr";

/**
 * What a page that broke while rendering shows instead of a blank screen (app/**\/error.tsx): it
 * says so in the app's frame, Try again reads everything afresh and renders the page again, and
 * a server-side failure gives the code that finds it in the server's log. The heading takes the
 * focus, so a screen reader announces it.
 */
export function PageError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The browser's console is where a developer looks; the page keeps to plain words.
    console.error(error);
    heading.current?.focus();
  }, [error]);
  return (
    <section className="card empty-state" aria-labelledby="page-error-title" data-testid="page-error">
      <h1 id="page-error-title" ref={heading} tabIndex={-1}>
        This page stopped working
      </h1>
      <p>
        Something went wrong while showing it. Nothing you saved was lost.
        {error.digest ? (
          <>
            {" "}
            If it happens again, mention the code <code data-testid="page-error-digest">{error.digest}</code> when you report it.
          </>
        ) : null}
      </p>
      <p>
        <button type="button" onClick={() => void forgetAnswers().then(retry)}>
          Try again
        </button>{" "}
        <Link href="/">Go to your projects</Link>
      </p>
    </section>
  );
}
