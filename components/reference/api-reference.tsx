"use client";

import dynamic from "next/dynamic";

/**
 * The interactive reference (Scalar) in its own chunk, fetched only when /reference renders in
 * the browser: no other page's bundle carries it, and it never renders on the server.
 */
const ScalarReference = dynamic(() => import("./scalar-reference"), {
  ssr: false,
  loading: () => <p className="muted" role="status">Loading the reference…</p>,
});

export function ApiReference() {
  return (
    <div data-testid="api-reference" className="api-reference">
      <ScalarReference />
    </div>
  );
}
