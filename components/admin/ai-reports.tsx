"use client";

import { useState } from "react";
import { toast } from "sonner";
import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import type { TAiReport } from "@/lib/schemas/reports";
import { errorMessage } from "@/lib/ui/form-issues";
import { formatDateTime } from "@/lib/ui/format";
import { useMorePages } from "@/lib/ui/use-more-pages";
import { ErrorAlert } from "@/components/ui/error-alert";
import { LoadMore } from "@/components/ui/load-more";
import { LoadError, Loading } from "@/components/ui/load-state";

type Status = TAiReport["status"];
const STATES: { value: Status; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "resolved", label: "Resolved" },
  { value: "dismissed", label: "Dismissed" },
];
const REASON: Record<TAiReport["reason"], string> = { offensive: "Offensive", unsafe: "Unsafe or harmful", incorrect: "Wrong or misleading", other: "Something else" };
const DONE: Record<Status, string> = { open: "Reopened", resolved: "Marked resolved", dismissed: "Dismissed" };

/**
 * Replies users reported (admin_aiReports): open ones first, each with the reporter, the reason,
 * their words and the reply's text; resolve or dismiss it, or reopen a closed one.
 */
export function AiReports() {
  const [status, setStatus] = useState<Status>("open");
  const query = { status };
  // Each tab reads afresh: a report decided on one tab has moved to another since it was last read.
  const reports = useOperation("admin_aiReports", { query }, { dedupingInterval: 0 });
  const more = useMorePages(reports.data, (cursor) => call("admin_aiReports", { query: { ...query, cursor } }));
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function decide(report: TAiReport, next: Status) {
    setBusy(report.id);
    setError(null);
    try {
      await call("admin_setAiReportStatus", { params: { reportId: report.id }, body: { status: next } });
      toast.success(DONE[next]);
      await reports.mutate();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card" aria-labelledby="reports-h">
      <h1 id="reports-h" style={{ marginTop: 0, fontSize: "1.4rem" }}>
        Reported replies
      </h1>
      <p className="muted">What people reported with &ldquo;Report&rdquo; on an agent&apos;s reply, newest first.</p>
      <div className="inline-fields" role="group" aria-label="Show reports that are">
        {STATES.map((s) => (
          <button key={s.value} type="button" className={s.value === status ? undefined : "secondary"} aria-pressed={s.value === status} onClick={() => setStatus(s.value)}>
            {s.label}
          </button>
        ))}
      </div>
      <ErrorAlert message={error} />
      {reports.error ? (
        <LoadError what="the reports" message={reports.error.message} onRetry={() => void reports.mutate()} inline />
      ) : !reports.data ? (
        <Loading label="Loading the reports…" inline />
      ) : more.items.length === 0 ? (
        <p className="muted" data-testid="reports-empty">
          {status === "open" ? "Nothing to review: no open reports." : `No ${status} reports.`}
        </p>
      ) : (
        <ul className="plain" data-testid="reports">
          {more.items.map((r) => (
            <li key={r.id} data-testid="report" style={{ borderTop: "1px solid var(--line)", padding: "0.75rem 0" }}>
              <p style={{ margin: 0 }}>
                <strong>{REASON[r.reason]}</strong> · reported by {r.reporterEmail} ·{" "}
                <time dateTime={new Date(r.createdAt).toISOString()} suppressHydrationWarning>
                  {formatDateTime(r.createdAt)}
                </time>
              </p>
              {r.details ? <p style={{ margin: "0.35rem 0", whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>&ldquo;{r.details}&rdquo;</p> : null}
              {r.excerpt !== null ? (
                <blockquote
                  aria-label="The reported text"
                  style={{ margin: "0.35rem 0", padding: "0.4rem 0.7rem", borderLeft: "3px solid var(--line)", whiteSpace: "pre-wrap", overflowWrap: "anywhere", maxHeight: "12rem", overflowY: "auto" }}
                  tabIndex={0}
                >
                  {r.excerpt}
                </blockquote>
              ) : (
                <p className="muted" style={{ margin: "0.35rem 0" }}>
                  The todo was deleted since; its text is gone.
                </p>
              )}
              <div className="inline-fields">
                {r.status === "open" ? (
                  <>
                    <button type="button" disabled={busy !== null} onClick={() => void decide(r, "resolved")} aria-label={`Resolve the report by ${r.reporterEmail}`}>
                      Resolve
                    </button>
                    <button type="button" className="secondary" disabled={busy !== null} onClick={() => void decide(r, "dismissed")} aria-label={`Dismiss the report by ${r.reporterEmail}`}>
                      Dismiss
                    </button>
                  </>
                ) : (
                  <button type="button" className="secondary" disabled={busy !== null} onClick={() => void decide(r, "open")} aria-label={`Reopen the report by ${r.reporterEmail}`}>
                    Reopen
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <LoadMore more={more} label="Load older reports" />
    </section>
  );
}
