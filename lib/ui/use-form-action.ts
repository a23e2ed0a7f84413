"use client";

import { useState } from "react";
import type { z } from "zod";
import { errorMessage, issueSummary, type IssueLabels } from "./form-issues.ts";

/**
 * The submit cycle of a small form with one error paragraph: check the input with the shared
 * schema (its issues become the error), then send it while `busy`; a failed request shows the
 * API's message. Forms that show errors beside each field use `useSubmit` (components/ui/form.tsx).
 */
export function useFormAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** The parsed data, or null after showing the schema's issues as the error. */
  function check<T>(parsed: z.ZodSafeParseResult<T>, labels: IssueLabels = {}): T | null {
    if (parsed.success) return parsed.data;
    setError(issueSummary(parsed.error.issues, labels));
    return null;
  }

  /** Runs `send` while busy, with the old error cleared; what it throws becomes the error. True when it succeeded. */
  async function run(send: () => Promise<void>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await send();
      return true;
    } catch (err) {
      setError(errorMessage(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** `check`, then `run` with the data: the whole cycle of a form that needs no other check. */
  async function submit<T>(parsed: z.ZodSafeParseResult<T>, labels: IssueLabels, send: (data: T) => Promise<void>): Promise<boolean> {
    const data = check(parsed, labels);
    return data === null ? false : run(() => send(data));
  }

  return { busy, error, setError, check, run, submit };
}
