"use client";

import { useCallback, useEffect, useState } from "react";
import { errorMessage } from "@/lib/ui/form-issues";
import { ApiClientError } from "@/lib/api-client";
import styles from "./settings.module.css";

export type Load<T> = { kind: "loading" } | { kind: "error"; message: string; status: number | null } | { kind: "ready"; data: T };

/** Runs `load` after mount (and again on retry); the page shows loading, error or its data. */
export function useLoad<T>(load: () => Promise<T>): [Load<T>, () => void] {
  const [state, setState] = useState<Load<T>>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    load()
      .then((data) => live && setState({ kind: "ready", data }))
      .catch((err: unknown) => live && setState({ kind: "error", message: errorMessage(err), status: err instanceof ApiClientError ? err.status : null }));
    return () => {
      live = false;
    };
    // `load` is a fresh closure each render; reloading is driven by `attempt` alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt]);
  const retry = useCallback(() => {
    setState({ kind: "loading" });
    setAttempt((n) => n + 1);
  }, []);
  return [state, retry];
}

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
