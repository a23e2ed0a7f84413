// Turns validation problems and API errors into the messages forms show (no React, no DOM).
// The same field keys come from the shared zod schemas (checked before sending) and from the
// API's 400 `data.issues` (paths start with `body.`), so a field shows its message whichever
// side found the problem.
import { ApiClientError } from "../api/client.ts";

/** What a zod issue (or an API issue) carries that a message needs. */
export type Issue = { readonly path: readonly PropertyKey[]; readonly message: string };

/** Field path (dot-joined, e.g. `defaultAgent.temperature`) → its name in the form. */
export type IssueLabels = Record<string, string>;

/** Field path (dot-joined, e.g. `defaultAgent.temperature`) → message; `""` is the form itself. */
export type FieldErrors = Record<string, string>;

const keyOf = (issue: Issue) => issue.path.map(String).join(".");

/**
 * One message per issue, prefixed with the name of the field it concerns: `Name must not be
 * empty` (or, with `separator` ": ", `Time: must be in the future`). A field without a label is
 * named by its path; an issue of the whole input has no prefix.
 */
export function issueMessages(issues: readonly Issue[], labels: IssueLabels = {}, separator = " "): string[] {
  return issues.map((i) => {
    const key = keyOf(i);
    const label = labels[key] ?? key;
    return label ? `${label}${separator}${i.message}` : i.message;
  });
}

/** All issues as one line (`issueMessages` joined by "; "), for a form with one error paragraph. */
export function issueSummary(issues: readonly Issue[], labels: IssueLabels = {}): string {
  return issueMessages(issues, labels).join("; ");
}

/** The first message of each field, for forms that show it beside the field. */
export function zodFieldErrors(error: { issues: readonly Issue[] }): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) out[keyOf(issue)] ??= issue.message;
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

/** The message of anything thrown by `call` (ApiClientError carries the API's own message). */
export function errorMessage(err: unknown): string {
  return err instanceof Error && err.message ? err.message : "Something went wrong. Please try again.";
}
