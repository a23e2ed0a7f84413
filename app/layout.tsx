import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Toaster } from "sonner";
import { THEME_BOOT_SCRIPT } from "@/lib/ui/theme";
import { MAIN_ID, SkipLink } from "@/components/shell/skip-link";
import "./globals.css";

export const metadata: Metadata = {
  title: "Todo Service",
  description: "Todos in projects, each a conversation with an AI agent.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // suppressHydrationWarning: the boot script sets data-theme on <html> before React hydrates.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* The remembered theme on <html> before the first paint (lib/ui/theme.ts). */}
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body>
        <SkipLink />
        <header className="topbar">
          <Link href="/" className="brand">Todo Service</Link>
          <nav aria-label="Main">
            <Link href="/reference">API reference</Link>
          </nav>
        </header>
        <main className="page" id={MAIN_ID} tabIndex={-1}>
          {children}
        </main>
        {/* Results and errors of actions (sonner): polite, dismissible, above the page's own controls. */}
        <Toaster position="bottom-right" theme="system" closeButton richColors />
      </body>
    </html>
  );
}
