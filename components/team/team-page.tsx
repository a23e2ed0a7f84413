"use client";

import { useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import { revalidateOperations, useLiveOperations, useOperation } from "@/lib/api/swr";
import { ZTeamAddMemberInput, type TTeamInfo } from "@/lib/schemas/teams";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Field, SaveBar, Section, fieldAria, useForm } from "@/components/ui/form";
import { LoadError, Loading } from "@/components/ui/load-state";
import styles from "@/components/settings/settings.module.css";
import { TeamUsage } from "./team-usage";

// The team page (/team): members and roles, invites, the shared project, the join domain, and
// (owner and admin) the shared pool's usage per member.
// Only what the caller's role may do is offered (docs/api.md "Teams").

type Team = TTeamInfo;

async function refresh() {
  await revalidateOperations(["billing_getTeam", "project_list"]);
}

export function TeamPage() {
  const team = useOperation("billing_getTeam", {});
  const profile = useOperation("user_profile", {});
  // Any change of the team (members, roles, invites, project, join domain): read it again. The
  // team's project renamed or deleted is news of the project alone (to every member's own room).
  const teamProjectId = team.data?.project?.id;
  useLiveOperations(
    (e) =>
      e.type === "team.updated" ||
      (teamProjectId !== undefined && e.projectId === teamProjectId && (e.type === "project.deleted" || (e.type === "project.updated" && (e.data as { action?: string } | null)?.action === "updated")))
        ? ["billing_getTeam"]
        : [],
    ["billing_getTeam"],
  );
  if (team.error) return <LoadError what="your team" message={team.error.message} onRetry={() => void team.mutate()} />;
  if (team.data === undefined) return <Loading label="Loading your team…" />;
  const t = team.data;
  if (!t)
    return (
      <>
        <Section id="no-team" title="No team yet" description="Invite someone by email: your first invite creates your team, with you as its owner.">
          <InviteForm withName />
        </Section>
      </>
    );
  const manager = t.role !== "member";
  return (
    <>
      <p className="muted" data-testid="team-summary">
        <strong>{t.name}</strong>: you are {t.role === "owner" ? "the owner" : `a${t.role === "admin" ? "n admin" : " member"}`}.
      </p>
      {t.handover ? <Handover team={t} meId={profile.data?.id ?? null} /> : null}
      <Members team={t} meId={profile.data?.id ?? null} />
      {manager ? (
        <Section id="invite" title="Invite a member" description="They get an email with a link that works once, for 7 days.">
          <InviteForm />
          <Invites team={t} />
        </Section>
      ) : null}
      <SharedProject team={t} />
      {t.role === "owner" ? <JoinDomain team={t} /> : null}
      {manager ? <TeamUsage /> : null}
    </>
  );
}

function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(fn: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await fn();
      await refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}

/** What a member row's action asks before it happens: each changes who is in or who owns the team. */
type Ask = { kind: "offer" | "remove" | "leave" | "dissolve"; memberId: string; who: string };

function askText(ask: Ask, team: Team) {
  switch (ask.kind) {
    case "offer":
      return {
        title: `Offer ${team.name} to ${ask.who}?`,
        description: "Nothing changes until they accept. Once they do, they become its owner and their account pays for every member's agent turns, and you become an admin; only they can give it back.",
        confirmLabel: "Offer the team",
        busyLabel: "Offering…",
        tone: "primary" as const,
      };
    case "remove":
      return {
        title: `Remove ${ask.who} from ${team.name}?`,
        description: "They lose the team's shared project at once, and the team no longer pays for their agent turns. You can invite them again.",
        confirmLabel: "Remove",
        busyLabel: "Removing…",
        tone: "danger" as const,
      };
    case "leave":
      return {
        title: `Leave ${team.name}?`,
        description: "You lose the team's shared project at once, and the team no longer pays for your agent turns. An owner or admin can invite you again.",
        confirmLabel: "Leave the team",
        busyLabel: "Leaving…",
        tone: "danger" as const,
      };
    case "dissolve":
      return {
        title: `Dissolve ${team.name}?`,
        description: "The team, its pending invites and its log are deleted. Your projects stay yours.",
        confirmLabel: "Dissolve the team",
        busyLabel: "Dissolving…",
        tone: "danger" as const,
      };
  }
}

function Members({ team, meId }: { team: Team; meId: string | null }) {
  const { busy, error, run } = useAction();
  const [ask, setAsk] = useState<Ask | null>(null);
  // The dialog's own button does the call: a failure stays in the dialog (ConfirmDialog shows it).
  async function confirmAsk() {
    if (!ask) return;
    if (ask.kind === "offer") await call("billing_setTeamMemberRole", { params: { memberId: ask.memberId }, body: { role: "owner" } });
    else await call("billing_removeTeamMember", { params: { memberId: ask.memberId }, body: { memberId: ask.memberId } });
    await refresh();
  }
  const text = ask ? askText(ask, team) : null;
  return (
    <Section id="members" title="Members">
      <table className={styles.table} data-testid="team-members">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Role</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {team.members.map((m) => {
            const label = m.name ? `${m.name} (${m.email})` : m.email;
            const self = m.userId === meId;
            return (
              <tr key={m.id} data-testid="team-member" data-email={m.email}>
                <td>
                  {label}
                  {m.via === "domain" ? <span className="muted"> · joined by domain</span> : null}
                </td>
                <td>
                  {/* The member keeps their role while an offered hand-over waits (the Hand-over section says so). */}
                  {team.role === "owner" && m.role !== "owner" ? (
                    <select
                      aria-label={`Role of ${m.email}`}
                      className={styles.control}
                      value={m.role}
                      disabled={busy}
                      onChange={(e) => {
                        const role = e.target.value as "admin" | "member" | "owner";
                        // Once accepted, the hand-over cannot be undone by the one who offered it: ask
                        // first (the select stays on the member's role; it follows the team once offered).
                        if (role === "owner") return setAsk({ kind: "offer", memberId: m.id, who: label });
                        void run(() => call("billing_setTeamMemberRole", { params: { memberId: m.id }, body: { role } }));
                      }}
                    >
                      <option value="admin">admin</option>
                      <option value="member">member</option>
                      <option value="owner">owner (offer the team)</option>
                    </select>
                  ) : (
                    m.role
                  )}
                </td>
                <td>
                  {team.role === "owner" && m.role !== "owner" ? (
                    <button type="button" className="secondary" disabled={busy} onClick={() => setAsk({ kind: "remove", memberId: m.id, who: label })}>
                      Remove {m.email}
                    </button>
                  ) : null}
                  {self && m.role !== "owner" ? (
                    <button type="button" className="secondary" disabled={busy} onClick={() => setAsk({ kind: "leave", memberId: m.id, who: label })}>
                      Leave the team
                    </button>
                  ) : null}
                  {self && m.role === "owner" && team.members.length === 1 ? (
                    <button type="button" className="secondary" disabled={busy} onClick={() => setAsk({ kind: "dissolve", memberId: m.id, who: label })}>
                      Dissolve the team
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ErrorAlert message={error} />
      <ConfirmDialog
        open={ask !== null}
        title={text?.title ?? ""}
        description={text?.description ?? ""}
        confirmLabel={text?.confirmLabel ?? ""}
        busyLabel={text?.busyLabel ?? ""}
        tone={text?.tone}
        onConfirm={confirmAsk}
        onClose={() => setAsk(null)}
      />
    </Section>
  );
}

/**
 * A hand-over the owner offered (docs/api.md "Teams"): the member named accepts it here, knowing
 * that their account pays the team's shared pool from then on; the owner sees that it waits and
 * may withdraw it; everyone else sees that it waits.
 */
function Handover({ team, meId }: { team: Team; meId: string | null }) {
  const { busy, error, run } = useAction();
  const h = team.handover!;
  const who = h.name ? `${h.name} (${h.email})` : h.email;
  const since = new Date(h.offeredAt).toLocaleDateString(undefined, { dateStyle: "medium" });
  const owner = team.members.find((m) => m.role === "owner");
  const offeredBy = owner ? (owner.name ?? owner.email) : "The owner";
  if (h.userId === meId)
    return (
      <Section id="handover" title="You are offered the team">
        <p data-testid="handover-offer">
          {offeredBy} offers you the ownership of {team.name} (since {since}). If you accept, you become its owner and {offeredBy} an admin, and{" "}
          <strong>every member&apos;s agent turns are paid by your account</strong>: your plan, its usage windows and, with extra spend on, your credit.
        </p>
        <p>
          <button type="button" disabled={busy} onClick={() => void run(() => call("billing_setTeamMemberRole", { params: { memberId: h.memberId }, body: { role: "owner" } }))}>
            Accept and pay for the team
          </button>
        </p>
        <ErrorAlert message={error} />
      </Section>
    );
  return (
    <Section id="handover" title="Hand-over waiting">
      <p role="status" data-testid="handover-waiting">
        {team.role === "owner" ? "You offered" : `${offeredBy} offered`} the team to {who} on {since}. Nothing changes until they accept; the shared pool is paid by {team.role === "owner" ? "you" : offeredBy} until then.
      </p>
      {team.role === "owner" ? (
        <p>
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => {
              const role = team.members.find((m) => m.id === h.memberId)?.role === "admin" ? "admin" : "member";
              void run(() => call("billing_setTeamMemberRole", { params: { memberId: h.memberId }, body: { role } }));
            }}
          >
            Withdraw the offer to {h.email}
          </button>
        </p>
      ) : null}
      <ErrorAlert message={error} />
    </Section>
  );
}

function InviteForm({ withName = false }: { withName?: boolean }) {
  const [email, setEmail] = useState("");
  const [teamName, setTeamName] = useState("");
  const { status, errors, alert, submit, edited } = useForm();
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    const input = { email, ...(withName && teamName.trim() ? { teamName } : {}) };
    const ok = await submit(e, ZTeamAddMemberInput.safeParse(input), async (body) => {
      await call("billing_addTeamMember", { body });
      await refresh();
    });
    if (ok) setEmail("");
  }
  return (
    <form onSubmit={onSubmit} noValidate>
      {withName ? (
        <Field id="team-name" label="Team name (optional)" error={errors.teamName}>
          <input className={styles.control} value={teamName} onChange={(e) => (edited(), setTeamName(e.target.value))} {...fieldAria("team-name", errors.teamName)} />
        </Field>
      ) : null}
      <Field id="invite-email" label="Email to invite" error={errors.email}>
        <input type="email" className={styles.control} value={email} onChange={(e) => (edited(), setEmail(e.target.value))} {...fieldAria("invite-email", errors.email)} />
      </Field>
      <SaveBar status={status} alert={alert} label="Send invite" />
    </form>
  );
}

function Invites({ team }: { team: Team }) {
  const { busy, error, run } = useAction();
  if (team.invites.length === 0) return <p className="muted">No pending invites.</p>;
  return (
    <>
      <h3>Pending invites</h3>
      <ul data-testid="team-invites">
        {team.invites.map((i) => (
          <li key={i.id} data-testid="team-invite">
            {i.email} · {i.status === "expired" ? "expired" : `expires ${new Date(i.expiresAt).toLocaleDateString()}`}{" "}
            {/* The address is on the line already: short labels that fit a phone, full names for screen readers. */}
            <button type="button" className="secondary" disabled={busy} aria-label={`Resend to ${i.email}`} onClick={() => void run(() => call("billing_addTeamMember", { body: { email: i.email } }))}>
              Resend
            </button>{" "}
            <button type="button" className="secondary" disabled={busy} aria-label={`Revoke invite to ${i.email}`} onClick={() => void run(() => call("billing_revokeTeamInvite", { body: { inviteId: i.id } }))}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <ErrorAlert message={error} />
    </>
  );
}

function SharedProject({ team }: { team: Team }) {
  const projects = useOperation("project_list", {});
  const { busy, error, run } = useAction();
  const manager = team.role !== "member";
  const own = (projects.data ?? []).filter((p) => p.role === "owner");
  return (
    <Section id="team-project" title="Shared project" description="Every member reads and writes it; it shows in their sidebar.">
      {manager ? (
        <Field id="team-project-select" label="Team project">
          <select
            id="team-project-select"
            className={styles.control}
            value={team.project?.id ?? ""}
            disabled={busy || !projects.data}
            onChange={(e) => void run(() => call("billing_setTeamProject", { body: { projectId: e.target.value || null } }))}
          >
            <option value="">None</option>
            {team.project && !own.some((p) => p.id === team.project!.id) ? <option value={team.project.id}>{team.project.name}</option> : null}
            {own.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <p data-testid="team-project">{team.project ? team.project.name : "None yet."}</p>
      )}
      <ErrorAlert message={error} />
    </Section>
  );
}

function JoinDomain({ team }: { team: Team }) {
  const { busy, error, run } = useAction();
  const { enabled, domain, eligible } = team.joinDomain;
  return (
    <Section
      id="join-domain"
      title="Join by company domain"
      description={eligible ? `Anyone who signs in with a verified @${domain} address joins the team as a member.` : "Your email is on a public mail domain, which can never be a join domain."}
    >
      <label className={styles.checkbox}>
        <input
          type="checkbox"
          checked={enabled}
          disabled={busy || (!eligible && !enabled)}
          onChange={(e) => void run(() => call("billing_setTeamJoinDomain", { body: { enabled: e.target.checked } }))}
        />
        Auto-join{domain ? ` for @${domain}` : ""}
      </label>
      <ErrorAlert message={error} />
    </Section>
  );
}
