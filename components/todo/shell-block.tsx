"use client";

import { useState } from "react";
import { call } from "@/lib/api/client";
import type { TBlock } from "@/lib/schemas/todos";
import type { ShellBlockContent } from "@/lib/shell-protocol";
import { errorMessage } from "@/lib/ui/form-issues";
import styles from "./todo.module.css";

// A shell command the agent proposed (a `shell` block): what would run, on which device and in
// which directory, with Approve / Deny while it waits; then its output as it streams (collapsible)
// and how it ended. Deciding goes through todo_decideShell; the block's changes come back as
// block.updated events of the todo's room, like every other block.

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The block's state in words. */
export function shellStateLabel(c: Partial<ShellBlockContent>): string {
  switch (c.state) {
    case "pending":
      return "Waiting for approval";
    case "running":
      return "Running…";
    case "done":
      return c.timedOut ? "Timed out" : c.exitCode === 0 ? "Succeeded" : c.exitCode !== null && c.exitCode !== undefined ? "Failed" : `Stopped${c.signal ? ` (${c.signal})` : ""}`;
    case "failed":
      return "Could not run";
    case "denied":
      return "Denied";
    case "cancelled":
      return "Cancelled";
    default:
      return "Unknown";
  }
}

export function ShellBlock({ block, editable }: { block: TBlock; editable: boolean }) {
  const c = asRecord(block.content) as Partial<ShellBlockContent>;
  const [busy, setBusy] = useState<"approve" | "deny" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const decide = async (approve: boolean) => {
    setBusy(approve ? "approve" : "deny");
    setError(null);
    try {
      await call("todo_decideShell", { params: { todoId: block.todoId, blockId: block.blockId }, body: { approve } });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  const started = c.startedAt !== undefined;
  const headingId = `shell-${block.blockId}`;
  // A public todo's shell blocks carry only their state (docs/api.md "Public todos").
  if (c.command === undefined) {
    return (
      <section className={styles.shellBlock} data-testid="shell-block" data-state={c.state} aria-labelledby={headingId}>
        <div className={styles.shellHead}>
          <span id={headingId}>A shell command on the owner&apos;s device</span>
          <span className={styles.shellState} data-testid="shell-state">
            {shellStateLabel(c)}
          </span>
        </div>
      </section>
    );
  }
  return (
    <section className={styles.shellBlock} data-testid="shell-block" data-state={c.state} aria-labelledby={headingId}>
      <div className={styles.shellHead}>
        <span id={headingId}>
          Shell command on <strong data-testid="shell-device">{c.deviceName ?? "a device"}</strong> in <code data-testid="shell-path">{c.path}</code>
        </span>
        <span className={styles.shellState} data-testid="shell-state">
          {shellStateLabel(c)}
        </span>
      </div>
      <pre className={styles.shellCommand} data-testid="shell-command">
        <span aria-hidden="true">$ </span>
        {c.command}
      </pre>
      {c.state === "pending" && editable ? (
        <div className={styles.shellActions} role="group" aria-label="Run this command?">
          <button type="button" onClick={() => void decide(true)} disabled={busy !== null} aria-describedby={headingId}>
            {busy === "approve" ? "Approving…" : "Approve"}
          </button>
          <button type="button" className="secondary" onClick={() => void decide(false)} disabled={busy !== null} aria-describedby={headingId}>
            {busy === "deny" ? "Denying…" : "Deny"}
          </button>
          <span className="muted" style={{ fontSize: "0.85rem" }}>
            It runs on your machine only once you approve.
          </span>
        </div>
      ) : null}
      {error ? (
        <p className="error" role="alert" style={{ margin: "0.3rem 0" }}>
          {error}
        </p>
      ) : null}
      {c.error ? (
        <p className="error" style={{ margin: "0.3rem 0" }} data-testid="shell-error">
          {c.error}
        </p>
      ) : null}
      {started ? (
        <details open className={styles.shellOutput} data-testid="shell-output">
          <summary>
            Output{c.state === "running" ? " (live)" : ""}
            {c.truncated ? " — cut off" : ""}
          </summary>
          <pre aria-live={c.state === "running" ? "polite" : "off"} data-testid="shell-output-text">
            {c.output ? c.output : c.state === "running" ? "(nothing yet)" : "(no output)"}
          </pre>
        </details>
      ) : null}
      {c.state === "done" ? (
        <p className="muted" style={{ margin: "0.2rem 0 0", fontSize: "0.85rem" }} data-testid="shell-exit">
          {c.timedOut ? `Stopped after ${Math.round((c.timeoutMs ?? 0) / 1000)} s` : c.exitCode !== null && c.exitCode !== undefined ? `Exit code ${c.exitCode}` : `Ended by ${c.signal ?? "a signal"}`}
        </p>
      ) : null}
    </section>
  );
}
