"use client";

import { PageError } from "@/components/ui/page-error";
import "./globals.css";

// The root layout itself failed: this replaces it, so it brings its own document.
export default function GlobalError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <html lang="en">
      <body>
        <main className="page">
          <PageError {...props} />
        </main>
      </body>
    </html>
  );
}
