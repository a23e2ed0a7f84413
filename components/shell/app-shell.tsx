"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { usePathname } from "next/navigation";
import { ShellProvider } from "./shell-context";
import { Sidebar } from "./sidebar";
import { SHELL_CONTENT_ID } from "./skip-link";

/**
 * The signed-in frame: a sidebar (projects, new project, account links, sign out) next to the
 * page. At 640 px and narrower the sidebar folds away behind a toggle button. The root layout's
 * "Skip to content" link (components/shell/skip-link.tsx) moves focus past it to the page.
 */
export function AppShell({ email, children }: { email: string; children: ReactNode }) {
  const pathname = usePathname();
  const [openAt, setOpenAt] = useState<string | null>(null);
  // The menu closes by itself when the user navigates (it stays open only on the page it was opened on).
  const open = openAt === pathname;
  const toggle = useRef<HTMLButtonElement>(null);
  // Escape closes the open menu from the toggle or from inside it, and gives focus back to the toggle.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      const focused = document.activeElement;
      if (focused !== toggle.current && !document.getElementById("app-sidebar")?.contains(focused)) return;
      setOpenAt(null);
      toggle.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <ShellProvider email={email}>
      <div className="shell">
        <button
          ref={toggle}
          type="button"
          className="shell-toggle secondary"
          aria-expanded={open}
          aria-controls="app-sidebar"
          onClick={() => setOpenAt(open ? null : pathname)}
          aria-label={open ? "Hide menu" : "Menu: projects and account"}
          title={open ? "Hide menu" : "Projects and account"}
        >
          <span aria-hidden="true">{open ? "✕" : "☰"}</span>
        </button>
        <Sidebar id="app-sidebar" open={open} />
        {/* The skip link's target (app/layout.tsx): focusable from script only. */}
        <div className="shell-main" id={SHELL_CONTENT_ID} tabIndex={-1}>
          {children}
        </div>
      </div>
    </ShellProvider>
  );
}
