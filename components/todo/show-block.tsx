"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import type { TBlock } from "@/lib/schemas/todos";
import { cardDocument } from "@/lib/ui/card-document";
import styles from "./todo.module.css";

// Data the agent showed through one of the project's cards (a `show` block, server/agent/tools/show.ts):
// the card's HTML runs in a sandboxed frame (scripts, but no same origin, no requests: see
// lib/ui/card-document.ts), as tall as its content says (postMessage from that frame only), with
// the data itself under "Data" for anyone who would rather read it, or cannot see the card.

type ShowContent = { card?: unknown; title?: unknown; html?: unknown; data?: unknown };

const MIN_HEIGHT = 40;
const MAX_HEIGHT = 900;

/** The page's colour scheme (its theme), read once the page runs. */
function usePageScheme(): "light" | "dark" {
  const [scheme, setScheme] = useState<"light" | "dark">("light");
  useEffect(() => {
    const read = () => setScheme(getComputedStyle(document.documentElement).colorScheme.includes("dark") ? "dark" : "light");
    read();
    // The theme changes by the attribute (settings, another tab) or by the system's preference.
    const observer = new MutationObserver(read);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", read);
    return () => {
      observer.disconnect();
      media.removeEventListener("change", read);
    };
  }, []);
  return scheme;
}

export function ShowBlock({ block }: { block: TBlock }) {
  const c = (block.content && typeof block.content === "object" ? block.content : {}) as ShowContent;
  const card = typeof c.card === "string" ? c.card : "Card";
  const title = typeof c.title === "string" && c.title ? c.title : null;
  const html = typeof c.html === "string" ? c.html : "";
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(160);
  const scheme = usePageScheme();
  const doc = useMemo(() => cardDocument(html, c.data, scheme), [html, c.data, scheme]);

  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.source !== frame.current?.contentWindow) return;
      const h = (e.data as { cardHeight?: unknown } | null)?.cardHeight;
      if (typeof h === "number" && Number.isFinite(h)) setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(h))));
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  return (
    <figure className={styles.showBlock} data-testid="show-block">
      <figcaption className={styles.showHead}>
        {title ? <strong>{title}</strong> : null}
        <span className="muted">Card: {card}</span>
      </figcaption>
      <iframe ref={frame} className={styles.showFrame} title={title ?? card} sandbox="allow-scripts" referrerPolicy="no-referrer" srcDoc={doc} style={{ height }} />
      <details className={styles.showData}>
        <summary>Data</summary>
        <pre>{JSON.stringify(c.data ?? null, null, 2)}</pre>
      </details>
    </figure>
  );
}
