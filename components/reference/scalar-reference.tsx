"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useEffect, useMemo, useState } from "react";

/** The page's theme as lib/ui/theme.ts applied it: data-theme on <html>, else the system's. */
function pageIsDark(): boolean {
  const attr = document.documentElement.getAttribute("data-theme");
  if (attr === "dark" || attr === "light") return attr === "dark";
  return window.matchMedia("(prefers-color-scheme: dark)").matches;
}

/**
 * Our theme over Scalar's default one, for WCAG AA contrast (4.5:1, e2e/ui/reference.spec.ts): its
 * method colours, secondary and muted text fall to 1.6–4.4:1 on its own backgrounds. Set where its
 * variables are (the mode class on <body> or on the app, and any part that sets its own mode), and
 * for the display-p3 variants too; the sidebar's search placeholder takes its colour where the mode
 * is set, so it is set again here. The list of endpoints on a tag's card was a scrolling region
 * (60vh) that the keyboard cannot reach: it shows every endpoint, and long paths wrap.
 */
const THEME_CSS = `
.light-mode .scalar-app, .scalar-app.light-mode, .scalar-app .light-mode {
  --scalar-color-2: #5e5e5e; --scalar-color-3: #666666;
  --scalar-color-blue: #0065a3; --scalar-color-green: #00704a; --scalar-color-red: #c8000a;
  --scalar-color-yellow: #7d6000; --scalar-color-orange: #b03f00;
  --scalar-sidebar-search-color: var(--scalar-color-3);
}
.dark-mode .scalar-app, .scalar-app.dark-mode, .scalar-app .dark-mode {
  --scalar-color-3: #9a9a9a; --scalar-color-red: #ff5c5c;
  --scalar-sidebar-search-color: var(--scalar-color-3);
}
.scalar-app .endpoints-card .scalar-card-content { max-height: none; overflow: visible; }
.scalar-app .endpoints { overflow: visible; }
.scalar-app .endpoints .endpoint { white-space: normal; }
.scalar-app .endpoints .endpoint-path { display: inline; min-width: 0; overflow-wrap: anywhere; }
`;

/**
 * Scalar's API reference (a Vue app inside a React wrapper), loaded only by /reference through
 * components/reference/api-reference.tsx. Everything it needs is in the bundle: no web fonts,
 * telemetry, request proxy or AI agent from Scalar's hosts, so the page works offline and
 * try-it-out requests go straight to this origin (the document's server URLs are relative).
 */
export default function ScalarReference() {
  const [dark, setDark] = useState(pageIsDark);
  useEffect(() => {
    const update = () => setDark(pageIsDark());
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", update);
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => {
      media.removeEventListener("change", update);
      observer.disconnect();
    };
  }, []);
  const configuration = useMemo(
    () => ({
      url: "/api/v1/openapi.json",
      // Try-it-out asks for an API key (x-api-key) first; the other schemes stay selectable.
      authentication: { preferredSecurityScheme: "ApiKeyHeader" },
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      hideClientButton: true,
      showDeveloperTools: "never" as const,
      hideDarkModeToggle: true,
      forceDarkModeState: dark ? ("dark" as const) : ("light" as const),
      showOperationId: true,
      defaultHttpClient: { targetKey: "shell" as const, clientKey: "curl" },
      customCss: THEME_CSS,
    }),
    [dark],
  );
  return <ApiReferenceReact configuration={configuration} />;
}
