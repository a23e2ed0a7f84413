"use client";

import styles from "./ui.module.css";

// A page's loading and failed-load states; the data itself comes from the data layer (lib/api/swr.ts).

/**
 * Loading: the shape of what is coming (a skeleton of `lines` bars), with `label` for screen
 * readers, rather than a "Loading…" line of text.
 */
export function Loading({ label, inline, lines = 3 }: { label: string; inline?: boolean; lines?: number }) {
  return (
    <div className={inline ? styles.skeletonInline : `card ${styles.state}`} role="status" aria-live="polite" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      <div className={styles.skeleton} aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => (
          <span key={i} className={styles.bar} style={{ width: `${[92, 68, 80, 55, 74][i % 5]}%` }} />
        ))}
      </div>
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
