"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import { apiFieldErrors, errorMessage, zodFieldErrors, type FieldErrors } from "@/lib/ui/form-issues";
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
 * One form's submit cycle: validate with the shared schema, send, then show "Saved", the
 * schema's (or the API's) message beside each field, or the API's error as an alert.
 */
export function useSubmit() {
  const [status, setStatus] = useState<Status>("idle");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<string | null>(null);

  /** The form's submit event: the page does not reload, and focus moves to the form's first invalid field. */
  async function submit<T>(e: FormEvent<HTMLFormElement>, parsed: z.ZodSafeParseResult<T>, send: (data: T) => Promise<void>): Promise<boolean> {
    e.preventDefault();
    const form = e.currentTarget;
    setAlert(null);
    if (!parsed.success) {
      const fields = zodFieldErrors(parsed.error);
      setErrors(fields);
      setStatus("idle");
      if (fields[""]) setAlert(fields[""]);
      focusFirstInvalid(form);
      return false;
    }
    setErrors({});
    setStatus("saving");
    try {
      await send(parsed.data);
      setStatus("saved");
      return true;
    } catch (err) {
      setErrors(apiFieldErrors(err) ?? {});
      focusFirstInvalid(form);
      setAlert(errorMessage(err));
      setStatus("idle");
      return false;
    }
  }

  /** Any edit after a save hides the old "Saved". */
  function edited() {
    if (status === "saved") setStatus("idle");
  }

  return { status, errors, alert, submit, edited };
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
