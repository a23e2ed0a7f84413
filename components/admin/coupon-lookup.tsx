"use client";

import { useState } from "react";
import { ApiClientError, call } from "@/lib/api/client";
import type { OperationResult } from "@/lib/api/types";
import { ErrorAlert } from "@/components/ui/error-alert";
import { formatDateTime } from "@/lib/ui/format";

// The per-code audit (admin_couponAudit, SPEC.md §4.8) on the course page: who a coupon code was
// made for, when it was mailed and redeemed, by whom, from which device and IP. A support case
// starts from the code a person quotes.

type Audit = OperationResult<"admin_couponAudit">;

const when = (ms: number | null) => (ms === null ? "no" : formatDateTime(ms));

export function CouponLookup() {
  const [code, setCode] = useState("");
  const [audit, setAudit] = useState<Audit | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function lookUp(e: React.FormEvent) {
    e.preventDefault();
    const c = code.trim();
    setAudit(null);
    setError(null);
    if (!c) return setError("Type the coupon code, e.g. ABCD-EFGH-JKLM.");
    setBusy(true);
    try {
      setAudit(await call("admin_couponAudit", { params: { code: c } }));
    } catch (err) {
      setError(err instanceof ApiClientError && err.status === 404 ? `No coupon “${c}”.` : err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card" aria-labelledby="coupon-h" onSubmit={(e) => void lookUp(e)} noValidate>
      <h2 id="coupon-h">Coupon code</h2>
      <div className="field-row">
        <div className="field grow">
          <label htmlFor="coupon-code">Code</label>
          <input id="coupon-code" type="text" autoComplete="off" spellCheck={false} value={code} onChange={(e) => setCode(e.target.value)} />
        </div>
        <button type="submit" className="secondary" disabled={busy}>
          {busy ? "Looking up…" : "Look up"}
        </button>
      </div>
      <ErrorAlert message={error} />
      <div role="status">
      {audit ? (
        <dl className="facts" data-testid="coupon-audit">
          <dt>Code</dt>
          <dd>
            <code>{audit.code}</code> ({audit.courseSlug})
          </dd>
          <dt>Made for</dt>
          <dd>{audit.email}</dd>
          <dt>Mailed</dt>
          <dd>
            {when(audit.mailedAt)}
            {audit.mailCount > 1 ? ` (${audit.mailCount} times)` : ""}
          </dd>
          <dt>Redeemed</dt>
          <dd>
            {when(audit.redeemedAt)}
            {audit.redeemedBy ? ` by ${audit.redeemedBy.email ?? audit.redeemedBy.userId}` : ""}
          </dd>
          <dt>Signup device, IP</dt>
          <dd>
            {audit.signupFingerprint ?? "none"}, {audit.signupIp ?? "none"}
          </dd>
          <dt>Redeeming device, IP</dt>
          <dd>
            {audit.redeemedFingerprint ?? "none"}, {audit.redeemedIp ?? "none"}
          </dd>
        </dl>
      ) : null}
      </div>
    </form>
  );
}
