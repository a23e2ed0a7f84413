"use client";

import type { MouseEvent } from "react";

/** The signed-in frame's content (components/shell/app-shell.tsx), past the sidebar. */
export const SHELL_CONTENT_ID = "content";
/** The page's <main> (app/layout.tsx): the target on pages without the sidebar. */
export const MAIN_ID = "main";

/**
 * "Skip to content": the first thing Tab reaches on every page, hidden until focused. It moves
 * focus past the top bar and the sidebar to the page's own content (the <main> without script).
 */
export function SkipLink() {
  function skip(e: MouseEvent<HTMLAnchorElement>) {
    const target = document.getElementById(SHELL_CONTENT_ID) ?? document.getElementById(MAIN_ID);
    if (!target) return;
    // Focus, not the URL's hash: a page's own hash (a todo's message link) stays as it is.
    e.preventDefault();
    target.focus();
    target.scrollIntoView({ block: "start" });
  }
  return (
    <a href={`#${MAIN_ID}`} className="skip-link" onClick={skip}>
      Skip to content
    </a>
  );
}
