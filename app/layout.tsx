import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Todo Service",
  description: "Todos in projects, each a conversation with an AI agent.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <a href="/" className="brand">Todo Service</a>
          <nav aria-label="Main">
            <a href="/reference">API reference</a>
          </nav>
        </header>
        <main className="page">{children}</main>
      </body>
    </html>
  );
}
