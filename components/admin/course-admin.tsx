"use client";

import { ErrorAlert, Outcome, type OutcomeState } from "@/components/ui/error-alert";
import { useId, useState } from "react";
import { ApiClientError, call } from "@/lib/api/client";
import type { OperationResult } from "@/lib/api/types";
import { useLiveOperations, useOperation } from "@/lib/api/swr";
import { LoadError, Loading } from "@/components/ui/load-state";
import { TableScroll } from "@/components/ui/table-scroll";
import { formatDateTime } from "@/lib/ui/format";
import { useMorePages } from "@/lib/ui/use-more-pages";
import { LoadMore } from "@/components/ui/load-more";
import { AdminLogView } from "./admin-log";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CouponLookup } from "./coupon-lookup";
import { CourseSettings } from "./course-settings";
import { JumpBar } from "@/components/ui/jump-bar";

// /admin/courses/<slug>: counts, the actions (each confirmed with how many people it reaches),
// live progress of bulk mail (Socket.IO `course.mail`, and the runs list after a reload),
// registrations, the audit, followers, ideas and the course's admin log.

type Action = { id: string; label: string; reach: number; run: () => Promise<string>; /** What the confirmation says, when not the usual "this reaches N people". */ says?: React.ReactNode };
type RunKind = "coupons" | "day" | "start" | "last";
type Run = OperationResult<"admin_courseMailRuns">["items"][number];

/** What each kind of mailing is called on the page. */
const KIND_LABEL: Record<RunKind, string> = { coupons: "Coupons", day: "“Starts tomorrow”", start: "“We are starting”", last: "Attendee code" };

const message = (err: unknown) => (err instanceof ApiClientError || err instanceof Error ? err.message : String(err));

/** The page's sections, in order, by their headings' ids: the jump bar at the top links to each. */
const SECTIONS: readonly (readonly [id: string, label: string])[] = [
  ["stats-h", "Counts"],
  ["settings-h", "Settings"],
  ["actions-h", "Actions"],
  ["runs-h", "Mailings"],
  ["regs-h", "Registrations"],
  ["coupon-h", "Coupon code"],
  ["audit-h", "Audit"],
  ["followers-h", "Followers"],
  ["ideas-h", "Ideas"],
  ["admin-log-h", "Admin log"],
];

export function CourseAdmin({ slug }: { slug: string }) {
  const course = useOperation("admin_getCourse", { params: { slug } });
  const runs = useOperation("admin_courseMailRuns", { params: { slug } });
  // The newest mailings, older ones on demand.
  const moreRuns = useMorePages(runs.data, (cursor) => call("admin_courseMailRuns", { params: { slug }, query: { cursor } }));
  const [pending, setPending] = useState<Action | null>(null);
  const [resend, setResend] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<OutcomeState>(null);

  // Progress: the job's `course.mail` events (to every admin's own connections) revalidate the
  // runs list, which is also what a reload reads; after a reconnect it is read again.
  useLiveOperations((e) => (e.type === "course.mail" ? ["admin_courseMailRuns", "admin_getCourse", "admin_courseMailRunFailures"] : []), ["admin_courseMailRuns"]);

  if (course.error)
    return course.error.status === 404 ? (
      <section className="card">
        <h1>No such course</h1>
        <p>There is no course “{slug}”.</p>
      </section>
    ) : (
      <LoadError what="the course" message={course.error.message} onRetry={() => void course.mutate()} />
    );
  if (!course.data) return <Loading label="Loading the course…" />;
  const c = course.data;
  const s = c.stats;

  const startRun = (kind: RunKind, again = resend) => async () => {
    const run = kind === "coupons" ? await call("admin_courseCoupons", { params: { slug }, body: { resend: again } }) : await call("admin_courseMail", { params: { slug, kind }, body: { resend: again } });
    await runs.mutate();
    return `Started: ${run.total} ${run.total === 1 ? "person" : "people"}.`;
  };
  // A retry is the same kind again without resend (the API's own rule): it reaches whoever no
  // earlier mailing of that kind reached, so the failed ones, and nobody mailed already.
  const retry = (r: Run): Action => ({
    id: `retry-${r.id}`,
    label: `Retry the ${r.failed} failed`,
    reach: r.failed,
    run: startRun(r.kind, false),
    says: (
      <>
        This mails the {KIND_LABEL[r.kind]} mailing again to everyone no earlier one reached: the <strong>{r.failed}</strong> {r.failed === 1 ? "person" : "people"} whose mail
        failed, and anyone added since. Nobody it reached already gets it twice. Go ahead?
      </>
    ),
  });
  const actions: Action[] = [
    { id: "coupons", label: "Mail coupons", reach: resend ? s.signups : s.signups - s.couponsMailed, run: startRun("coupons") },
    { id: "day", label: "Mail “starts tomorrow”", reach: s.signups, run: startRun("day") },
    { id: "start", label: "Mail “we are starting”", reach: s.signups, run: startRun("start") },
    { id: "last", label: "Mail the attendee code", reach: s.signups, run: startRun("last") },
    {
      id: "perks",
      label: "Grant perks now",
      reach: s.withAccount - s.perksGranted,
      run: async () => {
        const r = await call("admin_coursePerks", { params: { slug } });
        return `Granted ${r.granted}; ${r.alreadyGranted} had it; ${r.withoutAccount} without an account.`;
      },
    },
  ];

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    try {
      setResult({ ok: true, text: await pending.run() });
      await course.mutate();
    } catch (err) {
      setResult({ ok: false, text: message(err) });
    } finally {
      setBusy(false);
      setPending(null);
    }
  }

  return (
    <>
      <h1>{c.title}</h1>
      <p className="muted">
        {c.slug} · starts {formatDateTime(c.startsAt)} · <a href={`/courses/${c.slug}`}>public page</a>
      </p>
      {/* A long page: a bar that stays at the top jumps to each section and marks the one being read. */}
      <JumpBar sections={SECTIONS} label="Sections of this course" testId="course-sections" />
      <section className="card" aria-labelledby="stats-h">
        <h2 id="stats-h">Counts</h2>
        <p data-testid="course-stats">
          {s.signups} signups · {s.withAccount} with an account · {s.couponsMailed} coupons mailed · {s.couponsRedeemed} redeemed · {s.perksGranted} perks granted
        </p>
      </section>

      <CourseSettings key={c.id} slug={slug} course={c} onSaved={() => course.mutate()} />

      <section className="card" aria-labelledby="actions-h">
        <h2 id="actions-h">Actions</h2>
        <div className="checkbox-field">
          <input id="resend" type="checkbox" checked={resend} onChange={(e) => setResend(e.target.checked)} />
          <label htmlFor="resend">Mail everyone again (resend)</label>
        </div>
        <div className="inline-fields">
          {actions.map((a) => (
            <button key={a.id} type="button" className="secondary" disabled={busy} onClick={() => setPending(a)}>
              {a.label}
            </button>
          ))}
        </div>
        {pending ? (
          <ConfirmDialog
            open
            tone="primary"
            title={`${pending.label}?`}
            description={
              pending.says ?? (
              <>
                {pending.label}: this reaches <strong>{pending.reach}</strong> {pending.reach === 1 ? "person" : "people"}
                {pending.id !== "perks" && !resend && pending.id !== "coupons" ? " at most (those no earlier mailing of this kind reached)" : ""}. Go ahead?
              </>
              )
            }
            confirmLabel={`Yes, ${pending.label.toLowerCase()}`}
            busyLabel="Working…"
            onConfirm={confirm}
            onClose={() => setPending(null)}
          />
        ) : null}
        <Outcome out={result} />
        <EligibleForm slug={slug} onDone={() => void course.mutate()} />
      </section>

      <section className="card" aria-labelledby="runs-h">
        <h2 id="runs-h">Mailings</h2>
        {runs.error ? (
          <LoadError inline what="the mailings" message={runs.error.message} onRetry={() => void runs.mutate()} />
        ) : !runs.data ? (
          <Loading inline label="Loading the mailings…" />
        ) : moreRuns.items.length === 0 ? (
          <p className="muted">No mailing yet.</p>
        ) : (
          <>
            <ul className="plain" data-testid="mail-runs">
              {moreRuns.items.map((r) => (
                <MailRunRow
                  key={r.id}
                  slug={slug}
                  run={r}
                  busy={busy}
                  // Only the newest mailing of a kind offers the retry: an older one's failed were retried by it.
                  onRetry={moreRuns.items.find((x) => x.kind === r.kind) === r ? () => setPending(retry(r)) : null}
                />
              ))}
            </ul>
            <LoadMore more={moreRuns} label="Load older mailings" />
          </>
        )}
      </section>

      <Registrations slug={slug} />
      <CouponLookup />
      <Audit slug={slug} />
      <Followers slug={slug} />
      <Ideas slug={slug} />
      <AdminLogView course={slug} />
    </>
  );
}

const STATE_LABEL: Record<Run["state"], string> = { queued: "waiting to start", running: "sending", done: "finished" };

/** One mailing: its progress, how many failed, who failed and why on demand (a page at a time), and a retry once it is finished. */
function MailRunRow({ slug, run: r, busy, onRetry }: { slug: string; run: Run; busy: boolean; onRetry: (() => void) | null }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const pct = r.total === 0 ? 100 : Math.floor(((r.sent + r.failed) * 100) / r.total);
  const name = `${KIND_LABEL[r.kind]} mailing of ${formatDateTime(r.createdAt)}`;
  return (
    <li style={{ marginBottom: "0.75rem" }} data-testid="mail-run">
      <span>
        {KIND_LABEL[r.kind]}
        {r.resend ? " (resend)" : ""} · {formatDateTime(r.createdAt)} · {STATE_LABEL[r.state]} · {r.sent} sent
        {r.failed ? (
          <>
            , <strong className="error">{r.failed} failed</strong>
          </>
        ) : null}{" "}
        of {r.total}
      </span>
      <progress max={100} value={pct} aria-label={`${name}: progress`} data-testid="mail-progress" data-percent={pct} style={{ width: "100%" }}>
        {pct}%
      </progress>
      {r.failed > 0 ? (
        <div className="inline-fields">
          <button type="button" className="secondary" aria-expanded={open} aria-controls={open ? panelId : undefined} onClick={() => setOpen(!open)}>
            {open ? "Hide who failed" : `Show who failed (${r.failed})`}
          </button>
          {onRetry && r.state === "done" ? (
            <button type="button" className="secondary" disabled={busy} onClick={onRetry}>
              Retry the {r.failed} failed
            </button>
          ) : null}
        </div>
      ) : null}
      {open ? (
        <div id={panelId}>
          <RunFailures slug={slug} runId={r.id} name={name} />
        </div>
      ) : null}
    </li>
  );
}

/** A mailing's failed recipients with the provider's reason, the last to fail first, a page at a time. */
function RunFailures({ slug, runId, name }: { slug: string; runId: string; name: string }) {
  const failures = useOperation("admin_courseMailRunFailures", { params: { slug, runId } });
  const more = useMorePages(failures.data, (cursor) => call("admin_courseMailRunFailures", { params: { slug, runId }, query: { cursor } }));
  if (failures.error) return <LoadError inline what="who failed" message={failures.error.message} onRetry={() => void failures.mutate()} />;
  if (!failures.data) return <Loading inline label="Loading who failed…" />;
  if (more.items.length === 0) return <p className="muted">Nobody failed.</p>;
  return (
    <>
      <TableScroll label={`${name}: who failed`}>
        <table data-testid="mail-failures">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Why (the mail provider&apos;s answer)</th>
              <th scope="col">Attempts</th>
            </tr>
          </thead>
          <tbody>
            {more.items.map((f) => (
              <tr key={f.id}>
                <td>{f.email}</td>
                <td style={{ minWidth: "14rem" }}>{f.reason ?? "No reason given"}</td>
                <td>{f.attempts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <LoadMore more={more} label="Load more of who failed" />
    </>
  );
}

function EligibleForm({ slug, onDone }: { slug: string; onDone: () => void }) {
  const [text, setText] = useState("");
  const [out, setOut] = useState<OutcomeState>(null);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const emails = text.split(/[\s,;]+/).filter(Boolean);
    if (emails.length === 0) return setOut({ ok: false, text: "Paste one or more addresses." });
    try {
      const r = await call("admin_courseEligible", { params: { slug }, body: { emails, skipInvalid: true } });
      setOut({ ok: r.rejected.length === 0, text: `Added ${r.added.length}, already listed ${r.alreadyListed.length}${r.rejected.length ? `, not email addresses: ${r.rejected.join(", ")}` : ""}.` });
      setText("");
      onDone();
    } catch (err) {
      setOut({ ok: false, text: message(err) });
    }
  }
  return (
    <form onSubmit={(e) => void submit(e)} style={{ marginTop: "1rem" }}>
      <label htmlFor="eligible">Eligible mailboxes (one per line)</label>
      <textarea id="eligible" rows={3} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="form-actions">
        <button type="submit" className="secondary">
          Tag as eligible
        </button>
      </div>
      <Outcome out={out} />
    </form>
  );
}

const PAGE = 50;
type Flag = "" | "true" | "false";

function Registrations({ slug }: { slug: string }) {
  const [q, setQ] = useState("");
  const [flags, setFlags] = useState<Record<"hasAccount" | "mailed" | "redeemed" | "claimed", Flag>>({ hasAccount: "", mailed: "", redeemed: "", claimed: "" });
  const [offset, setOffset] = useState(0);
  const query = { ...(q ? { q } : {}), ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v)), offset: String(offset), limit: String(PAGE) };
  // The previous page stays while the next one loads: Previous and Next (and the focus on them) stay put.
  const regs = useOperation("admin_courseRegistrations", { params: { slug }, query }, { keepPreviousData: true });
  const [exporting, setExporting] = useState(false);

  async function exportCsv() {
    setExporting(true);
    try {
      const rows: OperationResult<"admin_courseRegistrations">["items"] = [];
      for (let off = 0; ; off += 200) {
        const page = await call("admin_courseRegistrations", { params: { slug }, query: { ...query, offset: String(off), limit: "200" } });
        rows.push(...page.items);
        if (rows.length >= page.total || page.items.length === 0) break;
      }
      const cols = ["email", "source", "fingerprint", "ip", "socialHandle", "hasAccount", "couponMailedAt", "couponRedeemedAt", "perkClaimedAt", "createdAt"] as const;
      const cell = (v: unknown) => {
        const s = v === null || v === undefined ? "" : typeof v === "number" && v > 1e12 ? new Date(v).toISOString() : String(v);
        // Quoted, and a leading formula character neutralised (CSV injection).
        return `"${(/^[=+\-@\t\r]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"`;
      };
      const csv = [cols.join(","), ...rows.map((r) => cols.map((k) => cell(r[k])).join(","))].join("\r\n");
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
      a.download = `${slug}-registrations.csv`;
      a.click();
      URL.revokeObjectURL(a.href);
    } finally {
      setExporting(false);
    }
  }

  const setFlag = (k: keyof typeof flags) => (e: React.ChangeEvent<HTMLSelectElement>) => {
    setFlags((f) => ({ ...f, [k]: e.target.value as Flag }));
    setOffset(0);
  };
  return (
    <section className="card" aria-labelledby="regs-h">
      <h2 id="regs-h">Registrations</h2>
      <div className="field-row">
        <div className="field grow">
          <label htmlFor="reg-q">Search</label>
          <input
            id="reg-q"
            type="search"
            value={q}
            placeholder="email, fingerprint or IP"
            onChange={(e) => {
              setQ(e.target.value);
              setOffset(0);
            }}
          />
        </div>
        {(
          [
            ["hasAccount", "Account"],
            ["mailed", "Coupon mailed"],
            ["redeemed", "Redeemed"],
            ["claimed", "Perk claimed"],
          ] as const
        ).map(([k, label]) => (
          <div className="field" key={k}>
            <label htmlFor={`reg-${k}`}>{label}</label>
            <select id={`reg-${k}`} value={flags[k]} onChange={setFlag(k)}>
              <option value="">any</option>
              <option value="true">yes</option>
              <option value="false">no</option>
            </select>
          </div>
        ))}
        <button type="button" className="secondary" disabled={exporting} onClick={() => void exportCsv()}>
          Export CSV
        </button>
      </div>
      {regs.error ? (
        <LoadError inline what="the registrations" message={regs.error.message} onRetry={() => void regs.mutate()} />
      ) : !regs.data ? (
        <Loading inline label="Loading the registrations…" />
      ) : regs.data.total === 0 ? (
        <p className="muted">No registration matches.</p>
      ) : (
        <>
          <TableScroll label="Registrations">
            <table data-testid="registrations">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Fingerprint</th>
                  <th scope="col">IP</th>
                  <th scope="col">Account</th>
                  <th scope="col">Coupon mailed</th>
                  <th scope="col">Redeemed</th>
                  <th scope="col">Perk</th>
                </tr>
              </thead>
              <tbody>
                {regs.data.items.map((r) => (
                  <tr key={r.id}>
                    <td>
                      {r.email}
                      {r.source === "eligible" ? <span className="muted"> (eligible)</span> : null}
                    </td>
                    <td>{r.fingerprint ?? ""}</td>
                    <td>{r.ip ?? ""}</td>
                    <td>{r.hasAccount ? "yes" : "no"}</td>
                    <td>{r.couponMailedAt ? new Date(r.couponMailedAt).toLocaleString() : "no"}</td>
                    <td>{r.couponRedeemedAt ? new Date(r.couponRedeemedAt).toLocaleString() : "no"}</td>
                    <td>{r.perkClaimedAt ? new Date(r.perkClaimedAt).toLocaleString() : "no"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <div className="inline-fields">
            <button type="button" className="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Previous
            </button>
            <span>
              {offset + 1}–{Math.min(offset + PAGE, regs.data.total)} of {regs.data.total}
            </span>
            <button type="button" className="secondary" disabled={offset + PAGE >= regs.data.total} onClick={() => setOffset(offset + PAGE)}>
              Next
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function Audit({ slug }: { slug: string }) {
  const audit = useOperation("admin_courseAudit", { params: { slug } });
  return (
    <section className="card" aria-labelledby="audit-h">
      <h2 id="audit-h">Audit</h2>
      {audit.error ? (
        <LoadError inline what="the audit" message={audit.error.message} onRetry={() => void audit.mutate()} />
      ) : !audit.data ? (
        <Loading inline label="Loading the audit…" />
      ) : (
        <>
          <p className="muted">Follower snapshot: {audit.data.followerSnapshot.count} handles.</p>
          <h3>Shared device or IP</h3>
          {audit.data.clusters.length === 0 ? (
            <p className="muted">No two signups share a device or an IP.</p>
          ) : (
            <ul data-testid="audit-clusters" style={{ overflowWrap: "anywhere" }}>
              {audit.data.clusters.map((cl) => (
                <li key={`${cl.by}:${cl.value}`}>
                  {cl.by === "ip" ? "IP" : "Device"} <code>{cl.value}</code> ({cl.size} signups): {cl.members.map((m) => `${m.email}${m.redeemed ? ` (redeemed${m.followsPage ? ", follows" : ", does not follow"})` : ""}`).join(", ")}
                  {cl.size > cl.members.length ? <span className="muted"> and {cl.size - cl.members.length} more (search the registrations for {cl.value})</span> : null}
                </li>
              ))}
            </ul>
          )}
          {audit.data.clusters.length >= 100 ? <p className="muted">The 100 biggest groups are shown.</p> : null}
          <h3>Redeemers ({audit.data.redeemerCount})</h3>
          {audit.data.redeemers.length === 0 ? (
            <p className="muted">No coupon redeemed yet.</p>
          ) : (
            <>
              <ul style={{ overflowWrap: "anywhere" }}>
                {audit.data.redeemers.map((m) => (
                  <li key={m.email}>
                    {m.email} {m.socialHandle ? `@${m.socialHandle.replace(/^@/, "")}` : "(no handle)"} — {m.followsPage ? "follows the Page" : "does not follow the Page"}
                  </li>
                ))}
              </ul>
              {audit.data.redeemerCount > audit.data.redeemers.length ? (
                <p className="muted">
                  The first {audit.data.redeemers.length} of {audit.data.redeemerCount} are shown; the registrations (Redeemed: yes, Export CSV) list them all.
                </p>
              ) : null}
            </>
          )}
        </>
      )}
    </section>
  );
}

function Followers({ slug }: { slug: string }) {
  // The snapshot's size is the audit's (same SWR entry): the confirmation says what is replaced,
  // and the audit's count follows a replacement.
  const audit = useOperation("admin_courseAudit", { params: { slug } });
  const [text, setText] = useState("");
  const [out, setOut] = useState<OutcomeState>(null);
  const [asking, setAsking] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  async function replace(handles: string[]) {
    setBusy(true);
    try {
      const r = await call("admin_courseFollowers", { params: { slug }, body: { handles } });
      setOut({ ok: true, text: `Snapshot replaced: ${r.count} handles.` });
      setText("");
      await audit.mutate();
    } catch (err) {
      const invalid = err instanceof ApiClientError ? (err.data as { invalid?: string[] } | undefined)?.invalid : undefined;
      setOut({ ok: false, text: invalid ? `Not handles: ${invalid.join(", ")}. Nothing was replaced.` : message(err) });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  }
  const current = audit.data?.followerSnapshot.count;
  return (
    <form
      className="card"
      onSubmit={(e) => {
        e.preventDefault();
        setOut(null);
        setAsking(text.split(/[\s,;]+/).filter(Boolean));
      }}
      aria-labelledby="followers-h"
    >
      <h2 id="followers-h">Followers snapshot</h2>
      <label htmlFor="followers">Handles of the Page&apos;s followers (replaces the current snapshot)</label>
      <textarea id="followers" rows={4} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="form-actions">
        <button type="submit" className="secondary" disabled={busy}>
          Replace snapshot
        </button>
      </div>
      {asking ? (
        <ConfirmDialog
          open
          title="Replace the follower snapshot?"
          description={`${current === undefined ? "The current snapshot" : `The current snapshot of ${current} ${current === 1 ? "handle" : "handles"}`} is replaced by ${asking.length === 0 ? "an empty one" : asking.length === 1 ? "this 1 handle" : `these ${asking.length} handles`}; the audit then checks redeemers against them.`}
          confirmLabel="Yes, replace it"
          busyLabel="Replacing…"
          onConfirm={() => replace(asking)}
          onClose={() => setAsking(null)}
        />
      ) : null}
      <Outcome out={out} />
    </form>
  );
}

function Ideas({ slug }: { slug: string }) {
  const ideas = useOperation("admin_courseIdeas", { params: { slug } });
  const more = useMorePages(ideas.data, (cursor) => call("admin_courseIdeas", { params: { slug }, query: { cursor } }));
  // What a Hide or Unhide answered, also for ideas of the pages loaded on demand (which a
  // revalidation of the first page does not read again).
  const [hiddenNow, setHiddenNow] = useState<Record<string, boolean>>({});
  const [error, setError] = useState<string | null>(null);
  async function toggle(id: string, hidden: boolean) {
    setError(null);
    try {
      const idea = await call("admin_hideIdea", { body: { ideaId: id, hidden } });
      setHiddenNow((h) => ({ ...h, [id]: idea.hidden }));
      await ideas.mutate();
    } catch (err) {
      setError(message(err));
    }
  }
  return (
    <section className="card" aria-labelledby="ideas-h">
      <h2 id="ideas-h">Ideas</h2>
      <ErrorAlert message={error} />
      {ideas.error ? (
        <LoadError inline what="the ideas" message={ideas.error.message} onRetry={() => void ideas.mutate()} />
      ) : !ideas.data ? (
        <Loading inline label="Loading the ideas…" />
      ) : more.items.length === 0 ? (
        <p className="muted">No idea submitted yet.</p>
      ) : (
        <>
          <ul className="plain" data-testid="admin-ideas">
            {more.items.map((i) => {
              const hidden = hiddenNow[i.id] ?? i.hidden;
              return (
                <li key={i.id} style={{ marginBottom: "0.5rem", overflowWrap: "anywhere" }}>
                  {hidden ? <span className="tag">hidden</span> : null} {i.text} <span className="muted">— {i.authorEmail}</span>{" "}
                  <button type="button" className="link-button" onClick={() => void toggle(i.id, !hidden)}>
                    {hidden ? "Unhide" : "Hide"}
                  </button>
                </li>
              );
            })}
          </ul>
          <LoadMore more={more} label="Load older ideas" />
        </>
      )}
    </section>
  );
}
