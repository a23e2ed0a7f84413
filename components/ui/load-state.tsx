"use client";

import styles from "./ui.module.css";

// A page's loading and failed-load states; the data itself comes from the data layer (lib/api/swr.ts).

export function Loading({ label, inline }: { label: string; inline?: boolean }) {
  return (
    <div className={inline ? undefined : `card ${styles.state}`} role="status" aria-live="polite">
      <p className="muted">{label}</p>
    </div>
  );
}

export function LoadError({ what, message, onRetry, inline }: { what: string; message: string; onRetry: () => void; inline?: boolean }) {
  return (
    <div className={inline ? undefined : `card ${styles.state}`}>
      <p role="alert" className="error">
        Could not load {what}: {message}
      </p>
      <button type="button" className="secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
