"use client";

import { useState } from "react";

/**
 * The text box of an inline rename (a project, a group): focused when it opens, Escape cancels
 * and gives focus back to what had it before (the Rename button), not to <body>.
 */
export function RenameInput({ id, value, onChange, onCancel, invalid }: { id: string; value: string; onChange: (value: string) => void; onCancel: () => void; invalid: boolean }) {
  // Read on the first render, before autoFocus moves focus here.
  const [returnTo] = useState(() => (typeof document === "undefined" ? null : document.activeElement));
  return (
    <input
      id={id}
      type="text"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoFocus
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        onCancel();
        if (returnTo instanceof HTMLElement) requestAnimationFrame(() => returnTo.isConnected && returnTo.focus());
      }}
      aria-invalid={invalid ? true : undefined}
    />
  );
}
