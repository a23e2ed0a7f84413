"use client";

import { useState, type KeyboardEvent } from "react";

/**
 * The text box of an inline rename (a project, a group): focused when it opens, Escape cancels
 * and gives focus back to what had it before (the Rename button), not to <body>. `multiline` (a
 * todo's text, which may be a list): a text area that keeps the lines, as tall as they are; Enter
 * submits its form and Shift+Enter adds a line.
 */
export function RenameInput({ id, value, onChange, onCancel, invalid, multiline = false, describedBy }: { id: string; value: string; onChange: (value: string) => void; onCancel: () => void; invalid: boolean; multiline?: boolean; describedBy?: string }) {
  // Read on the first render, before autoFocus moves focus here.
  const [returnTo] = useState(() => (typeof document === "undefined" ? null : document.activeElement));
  const common = {
    id,
    value,
    autoFocus: true,
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": describedBy,
    onKeyDown: (e: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      if (multiline && e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
        e.preventDefault();
        e.currentTarget.form?.requestSubmit();
      }
      if (e.key !== "Escape") return;
      onCancel();
      if (returnTo instanceof HTMLElement) requestAnimationFrame(() => returnTo.isConnected && returnTo.focus());
    },
  } as const;
  return multiline ? (
    <textarea
      {...common}
      rows={Math.min(6, value.split("\n").length)}
      // The caret at the end, where a list goes on.
      onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
      onChange={(e) => onChange(e.target.value)}
    />
  ) : (
    <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />
  );
}
