"use client";

import Link from "next/link";
import { useState } from "react";
import { ApiClientError, call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { ErrorAlert } from "@/components/ui/error-alert";
import { LoadError, Loading } from "@/components/ui/load-state";

// /invite/<token>: who invited you to what; sign in with the invited address if needed; accept.

const GONE: Record<string, string> = {
  accepted: "This invite has already been used. If it was you, the team is on your team page.",
  revoked: "This invite was withdrawn by the team. Ask them for a new one.",
  expired: "This invite has expired. Ask the team for a new one.",
};

const PLAN_NAMES: Record<string, string> = { free: "Free", pro: "Pro", max: "Max" };

function day(ms: number | null): string {
  return ms ? new Date(ms).toLocaleDateString(undefined, { dateStyle: "medium" }) : "the end of its period";
}

/** The sign-in page with the invited address filled in, coming back here once signed in. */
function signInHref(token: string, email: string): string {
  return `/signin?${new URLSearchParams({ next: `/invite/${encodeURIComponent(token)}`, email })}`;
}

export function InvitePage({ token }: { token: string }) {
  const preview = useOperation("billing_previewTeamInvite", { params: { token } });
  // 401 when signed out: that is an answer here, not an error.
  const profile = useOperation("user_profile", {});
  // Signed in: a paid plan of their own ends when they join (the team's pool pays), so say so first.
  const plan = useOperation("billing_getSubscription", profile.data ? {} : null);
  const [joined, setJoined] = useState<{ team: string; plan: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (preview.error)
    return preview.error.status === 404 ? (
      <section className="card">
        <h1>Invite not found</h1>
        <p>This invite link is not valid. Check that you opened the whole link from the email.</p>
      </section>
    ) : (
      <LoadError what="the invite" message={preview.error.message} onRetry={() => void preview.mutate()} />
    );
  if (!preview.data || (profile.data === undefined && !profile.error)) return <Loading label="Loading the invite…" />;
  const p = preview.data;
  const signedInAs = profile.data?.email ?? null;
  const matches = signedInAs !== null && signedInAs.toLowerCase() === p.email.toLowerCase();

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      const team = await call("billing_acceptTeamInvite", { body: { token } });
      const own = team.ownPlan;
      setJoined({
        team: team.name,
        plan: own && own.tier !== "free" && own.cancelAtPeriodEnd ? `Your ${PLAN_NAMES[own.tier]} plan ends on ${day(own.currentPeriodEnd)} and will not renew: the team's shared pool pays for your agent turns now.` : null,
      });
    } catch (err) {
      setError(err instanceof ApiClientError || err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" data-testid="invite">
      <h1>Join {p.teamName}</h1>
      <p>
        {p.invitedBy.name ?? p.invitedBy.email} invited <strong>{p.email}</strong> to the team <strong>{p.teamName}</strong> ({p.memberCount}{" "}
        {p.memberCount === 1 ? "member" : "members"}){p.project ? `, which shares the project “${p.project.name}”` : ""}.
      </p>
      {joined ? (
        <div role="status">
          <p>
            You joined {joined.team}. <Link href="/team">Go to your team</Link>
          </p>
          {joined.plan ? <p data-testid="invite-plan-ended">{joined.plan}</p> : null}
        </div>
      ) : p.status !== "pending" ? (
        <p role="alert">{GONE[p.status]}</p>
      ) : signedInAs === null ? (
        <p>
          To accept, <Link href={signInHref(token, p.email)}>sign in with {p.email}</Link>: the sign-in link we email you brings you back to this page.
        </p>
      ) : !matches ? (
        <p role="alert">
          You are signed in as {signedInAs}, but this invite is for {p.email}. Sign out, sign in with {p.email}, and open the link again.
        </p>
      ) : (
        <>
          {plan.data && plan.data.tier !== "free" ? (
            <p data-testid="invite-plan-notice">
              The team&apos;s shared pool pays for its members&apos; agent turns, so you will not need your own {PLAN_NAMES[plan.data.tier]} plan:{" "}
              {plan.data.cancelAtPeriodEnd
                ? `it ends on ${day(plan.data.currentPeriodEnd)} as you chose, and you cannot renew it while you are in the team.`
                : `joining sets it to end on ${day(plan.data.currentPeriodEnd)} (it stays yours until then and is not renewed; nothing is refunded).`}
            </p>
          ) : null}
          <p>
            <button type="button" disabled={busy} onClick={() => void accept()}>
              Accept and join {p.teamName}
            </button>
          </p>
        </>
      )}
      <ErrorAlert message={error} />
    </section>
  );
}
