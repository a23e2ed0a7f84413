"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import { apiFieldErrors, errorMessage, issueSummary, zodFieldErrors, type FieldErrors, type IssueLabels } from "@/lib/ui/form-issues";
import styles from "./ui.module.css";

/** ARIA wiring of a control to its hint and error paragraphs (rendered by Field). */
export function fieldAria(id: string, error: string | undefined, hint?: ReactNode | boolean) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy || undefined };
}

export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type Status = "idle" | "saving" | "saved";

/** After React has marked the fields (aria-invalid), put the keyboard on the first one. */
function focusFirstInvalid(form: HTMLFormElement) {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

/**
 * The one submit cycle of a form: validate with the shared schema, send while `busy`, then show
 * "Saved" (status), the schema's or the API's messages, or the API's error as `alert`.
 * A form that shows a message beside each field uses `useForm()`: the issues go to `errors` by
 * field and focus moves to the first invalid field. A form with one error paragraph names its
 * fields, `useForm({ labels })`: the issues become one line naming each field, in `alert`, and
 * focus stays. `check` and `run` are the two halves, for a form with its own checks between them.
 */
export function useForm({ labels }: { labels?: IssueLabels } = {}) {
  const [status, setStatus] = useState<Status>("idle");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<string | null>(null);

  /** The parsed data, or null after showing the schema's issues as one line in `alert`. */
  function check<T>(parsed: z.ZodSafeParseResult<T>): T | null {
    if (parsed.success) return parsed.data;
    setAlert(issueSummary(parsed.error.issues, labels));
    return null;
  }

  /** Runs `send` while busy, with old messages cleared; what it throws becomes the alert (and field errors). True when it succeeded. */
  async function run(send: () => Promise<void>, form?: HTMLFormElement): Promise<boolean> {
    setAlert(null);
    setErrors({});
    setStatus("saving");
    try {
      await send();
      setStatus("saved");
      return true;
    } catch (err) {
      setErrors(apiFieldErrors(err) ?? {});
      if (form) focusFirstInvalid(form);
      setAlert(errorMessage(err));
      setStatus("idle");
      return false;
    }
  }

  /** The form's submit event: the page does not reload; then `check` (with labels) or per-field errors, and `run`. */
  async function submit<T>(e: FormEvent<HTMLFormElement>, parsed: z.ZodSafeParseResult<T>, send: (data: T) => Promise<void>): Promise<boolean> {
    e.preventDefault();
    const form = e.currentTarget;
    if (labels) {
      const data = check(parsed);
      return data === null ? false : run(() => send(data));
    }
    if (!parsed.success) {
      const fields = zodFieldErrors(parsed.error);
      setErrors(fields);
      setStatus("idle");
      setAlert(fields[""] ?? null);
      focusFirstInvalid(form);
      return false;
    }
    const data = parsed.data;
    return run(() => send(data), form);
  }

  /** Any edit after a save hides the old "Saved". */
  function edited() {
    if (status === "saved") setStatus("idle");
  }

  return { status, busy: status === "saving", errors, alert, setAlert, check, run, submit, edited };
}

export function SaveBar({ status, alert, label = "Save" }: { status: Status; alert: string | null; label?: string }) {
  return (
    <>
      <div className={styles.actions}>
        <button type="submit" disabled={status === "saving"}>
          {status === "saving" ? "Saving…" : label}
        </button>
        <span role="status" className={styles.saved}>
          {status === "saved" ? "Saved" : ""}
        </span>
      </div>
      {alert ? (
        <p role="alert" className={`error ${styles.alert}`}>
          {alert}
        </p>
      ) : null}
    </>
  );
}

/** A section card with a heading, so assistive tech (and tests) can find it as a named region. */
export function Section({ id, title, description, children }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={styles.sectionTitle}>
        {title}
      </h2>
      {description ? <p className="muted">{description}</p> : null}
      {children}
    </section>
  );
}
