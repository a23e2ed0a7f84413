import { randomUUID } from "node:crypto";
import type { Caller } from "../../auth/caller.ts";
import { lockRow } from "../../db/lock.ts";
import { ApiError, badRequest, notFound } from "../../http/errors.ts";
import { enqueue } from "../../jobs/enqueue.ts";
import type { TTeamInfo, TTeamJoinResult } from "../../../lib/schemas/teams.ts";
import { db } from "../../runtime.ts";
import { endTeamMemberPlanNow } from "../billing/team-plan-job.ts";
import { teamInviteMailJob } from "./invite-mail-job.ts";
import { accessGained, logActivity, teamChanged, teamInfo, type TeamActor } from "./teams.ts";
import { INVITE_TTL_MS, hashInviteToken, inviteToken, newSalt } from "./tokens.ts";

type InviteStatus = "pending" | "accepted" | "revoked" | "expired";

function statusOf(invite: { status: string; expiresAt: Date }): InviteStatus {
  if (invite.status === "accepted" || invite.status === "revoked") return invite.status;
  return invite.expiresAt.getTime() > Date.now() ? "pending" : "expired";
}

function notPending(status: InviteStatus): ApiError {
  const why = { accepted: "has already been accepted", revoked: "was revoked", expired: "has expired", pending: "is pending" }[status];
  return new ApiError("CONFLICT", `This invite ${why}`, { status });
}

/** Inviting one's own address is 400; billing_addTeamMember checks it before a first invite makes the team. */
export function refuseOwnAddress(caller: Caller, input: { email: string }): void {
  if (input.email.trim().toLowerCase() === caller.email.toLowerCase())
    throw badRequest("You cannot invite your own address", [{ path: "body.email", message: "is your own email", code: "custom" }]);
}

/**
 * Invites an address (owner or admin; the caller's first invite made their team). Inviting an
 * address with a pending invite sends it again: a new link (the old one stops working) and a new
 * expiry. The mail goes out as a job after the commit.
 */
export async function addTeamMember(team: TeamActor, input: { email: string }): Promise<TTeamInfo> {
  const email = input.email.trim().toLowerCase();
  const { caller, teamId } = team;
  refuseOwnAddress(caller, input);
  const inviteId = await db().$transaction(async (tx) => {
    await lockRow(tx, "Team", teamId);
    const member = await tx.teamMember.findFirst({ where: { teamId, user: { email: { equals: email, mode: "insensitive" } } }, select: { id: true } });
    if (member) throw new ApiError("CONFLICT", "That address is already a member of the team");
    const pending = await tx.teamInvite.findFirst({ where: { teamId, email, status: "pending" }, select: { id: true } });
    const id = pending?.id ?? randomUUID();
    const salt = newSalt();
    const data = { tokenSalt: salt, tokenHash: hashInviteToken(inviteToken(id, salt)), expiresAt: new Date(Date.now() + INVITE_TTL_MS), invitedById: caller.userId };
    if (pending) await tx.teamInvite.update({ where: { id }, data });
    else await tx.teamInvite.create({ data: { id, teamId, email, ...data } });
    await logActivity(tx, teamId, { kind: "invited", actorId: caller.userId, data: { email, inviteId: id, resent: Boolean(pending) } });
    return id;
  });
  await enqueue(teamInviteMailJob, { inviteId }, { key: inviteId });
  await teamChanged(teamId);
  return teamInfo(teamId, team.role);
}

/** Cancels a pending (or expired) invite of the caller's team: its link stops working at once. */
export async function revokeTeamInvite(team: TeamActor, inviteId: string): Promise<TTeamInfo> {
  await db().$transaction(async (tx) => {
    await lockRow(tx, "Team", team.teamId);
    const invite = await tx.teamInvite.findFirst({ where: { id: inviteId, teamId: team.teamId } });
    if (!invite) throw notFound("Invite");
    const status = statusOf(invite);
    if (status === "accepted" || status === "revoked") throw notPending(status);
    await tx.teamInvite.update({ where: { id: inviteId }, data: { status: "revoked", revokedAt: new Date() } });
    await logActivity(tx, team.teamId, { kind: "invite_revoked", actorId: team.caller.userId, data: { email: invite.email, inviteId } });
  });
  await teamChanged(team.teamId);
  return teamInfo(team.teamId, team.role);
}

async function inviteByToken(token: string) {
  const invite = await db().teamInvite.findUnique({
    where: { tokenHash: hashInviteToken(token) },
    include: {
      invitedBy: { select: { name: true, email: true } },
      team: { select: { name: true, project: { select: { name: true } }, _count: { select: { members: true } } } },
    },
  });
  if (!invite) throw notFound("Invite");
  return invite;
}

/** What an invite link is about, before sign-in; reading it changes nothing. */
export async function previewTeamInvite(token: string) {
  const invite = await inviteByToken(token);
  return {
    status: statusOf(invite),
    email: invite.email,
    teamName: invite.team.name,
    invitedBy: invite.invitedBy,
    project: invite.team.project,
    memberCount: invite.team._count.members,
    expiresAt: invite.expiresAt.getTime(),
  };
}

/**
 * Joins the invite's team as a member. Order of refusals: unknown token 404; an invite that is no
 * longer pending 409 (`data.status`); another signed-in address 422; already in a team 409. Any
 * refusal changes nothing. Once joined, the team's pool pays for the member's turns, so a paid
 * plan of their own is set to end at its period's end (`ownPlan` of the answer).
 */
export async function acceptTeamInvite(caller: Caller, token: string): Promise<TTeamJoinResult> {
  const found = await inviteByToken(token);
  const { teamId, projectId } = await db().$transaction(async (tx) => {
    if (!(await lockRow(tx, "Team", found.teamId))) throw notFound("Invite");
    const invite = await tx.teamInvite.findUnique({ where: { id: found.id } });
    if (!invite) throw notFound("Invite");
    const status = statusOf(invite);
    if (status !== "pending") throw notPending(status);
    if (invite.email !== caller.email.trim().toLowerCase())
      throw new ApiError("UNPROCESSABLE_CONTENT", "This invite is for another email address: sign in with the address it was sent to", { reason: "email_mismatch" });
    const existing = await tx.teamMember.findUnique({ where: { userId: caller.userId }, select: { teamId: true } });
    if (existing)
      throw new ApiError("CONFLICT", existing.teamId === invite.teamId ? "You are already a member of this team" : "You are already in another team: leave it first", {
        reason: "already_in_team",
      });
    await tx.teamMember.create({ data: { teamId: invite.teamId, userId: caller.userId, role: "member", via: "invite" } });
    await tx.teamInvite.update({ where: { id: invite.id }, data: { status: "accepted", acceptedAt: new Date(), acceptedById: caller.userId } });
    await logActivity(tx, invite.teamId, { kind: "joined", actorId: caller.userId, userId: caller.userId, data: { via: "invite", inviteId: invite.id } });
    const team = await tx.team.findUniqueOrThrow({ where: { id: invite.teamId }, select: { projectId: true } });
    return { teamId: invite.teamId, projectId: team.projectId };
  });
  if (projectId) accessGained([caller.userId], projectId);
  await teamChanged(teamId);
  const ownPlan = await endTeamMemberPlanNow(caller.userId);
  return { ...(await teamInfo(teamId, "member")), ownPlan };
}
