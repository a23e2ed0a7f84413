// Turns validation problems into per-field messages for forms. The same keys come from the
// shared zod schemas (checked before sending) and from the API's 400 `data.issues` (paths
// start with `body.`), so a field shows its message whichever side found the problem.
import type { z } from "zod";
import { ApiClientError } from "./api-client";

/** Field path (dot-joined, e.g. `defaultAgent.temperature`) → message; `""` is the form itself. */
export type FieldErrors = Record<string, string>;

export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".");
    out[key] ??= issue.message;
  }
  return out;
}

/** The per-field issues of an API 400, or null when the error carries none. */
export function apiFieldErrors(err: unknown): FieldErrors | null {
  if (!(err instanceof ApiClientError) || err.code !== "BAD_REQUEST") return null;
  const issues = (err.data as { issues?: { path?: unknown; message?: unknown }[] } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return null;
  const out: FieldErrors = {};
  for (const issue of issues) {
    if (typeof issue.path !== "string" || typeof issue.message !== "string") continue;
    const key = issue.path === "body" ? "" : issue.path.replace(/^body\./, "");
    out[key] ??= issue.message;
  }
  return out;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error && err.message ? err.message : "Something went wrong. Please try again.";
}
