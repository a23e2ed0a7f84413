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
    }),
    [dark],
  );
  return <ApiReferenceReact configuration={configuration} />;
}
