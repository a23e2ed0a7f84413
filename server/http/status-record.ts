import { appendFileSync } from "node:fs";
import { log } from "../log.ts";

// Declared vs observed statuses (test-only). With E2E_RECORD_STATUSES=<file> the pipeline appends
// each (operation, status) pair it answers to the file, once per pair, as JSON lines. The e2e run
// sets it for its servers, and its teardown holds what the tests observed against the statuses
// the OpenAPI document declares (scripts/check-observed-statuses.ts). Unset: nothing happens.

const seen = new Set<string>();
let failed = false;

export function recordStatus(opId: string | undefined, status: number, file = process.env.E2E_RECORD_STATUSES): void {
  if (!file || !opId) return;
  const key = `${file}\n${opId} ${status}`;
  if (seen.has(key)) return;
  seen.add(key);
  try {
    appendFileSync(file, `${JSON.stringify({ op: opId, status })}\n`);
  } catch (err) {
    if (!failed) log.warn("cannot record statuses", { file, error: String(err) });
    failed = true;
  }
}

/** Passes the response through, recording its status for its operation. */
export function recorded(op: { id: string } | undefined, response: Response): Response {
  recordStatus(op?.id, response.status);
  return response;
}

export type Observed = { op: string; status: number };

/** Reads recorded JSON lines (one file or several), without repeats. */
export function parseObserved(text: string): Observed[] {
  const out = new Map<string, Observed>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const { op, status } = JSON.parse(line) as Observed;
    out.set(`${op} ${status}`, { op, status });
  }
  return [...out.values()];
}

type Doc = { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };

/**
 * Observed (operation, status) pairs that the document does not declare. Every status an
 * operation answers must be listed on it; a 5xx never should happen (the `default` response only
 * documents its shape), so it is reported too.
 */
export function undeclared(doc: Doc, observed: Observed[]): string[] {
  const declared = new Map<string, Set<string>>();
  for (const item of Object.values(doc.paths))
    for (const o of Object.values(item)) if (o.operationId) declared.set(o.operationId, new Set(Object.keys(o.responses ?? {})));
  const problems: string[] = [];
  for (const { op, status } of observed) {
    const codes = declared.get(op);
    if (!codes) problems.push(`${op}: not in the document (answered ${status})`);
    else if (status >= 500) problems.push(`${op}: answered ${status}, a server error`);
    else if (!codes.has(String(status))) problems.push(`${op}: answered ${status}, which it does not declare`);
  }
  return problems.sort();
}
