"use client";

import { useEffect, useRef, useState } from "react";

/** "copied": on the clipboard; "selected": no clipboard access, the text is selected for Ctrl+C. */
export type CopyState = "idle" | "copied" | "selected";

/**
 * Copy a text to the clipboard, and say so. Without clipboard access (insecure origin, denied
 * permission) the text of the element `ref` points at is selected (a field's value, or any other
 * element's contents), so the user can copy it by hand.
 * `resetAfterMs`: the confirmation goes back to "idle" after that long (never when left out).
 */
export function useCopyText<E extends HTMLElement>(resetAfterMs?: number) {
  const ref = useRef<E>(null);
  const [state, setState] = useState<CopyState>("idle");

  useEffect(() => {
    if (state === "idle" || resetAfterMs === undefined) return;
    const t = setTimeout(() => setState("idle"), resetAfterMs);
    return () => clearTimeout(t);
  }, [state, resetAfterMs]);

  async function copy(text: string) {
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      selectContents(ref.current);
      let ok = false;
      try {
        ok = document.execCommand("copy");
      } catch {
        ok = false;
      }
      setState(ok ? "copied" : "selected");
    }
  }

  return { ref, state, copy, reset: () => setState("idle") };
}

function selectContents(el: HTMLElement | null) {
  if (!el) return;
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.focus();
    el.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(el);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
