import type { Prisma } from "../../db/generated/client.ts";
import { lockRow } from "../../db/lock.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { log } from "../../log.ts";
import type { TTeamInfo } from "../../../lib/schemas/teams.ts";
import { db, runtime, type Runtime } from "../../runtime.ts";
import { getProjectOrThrow } from "../access.ts";
import { queueEndTeamMemberPlan } from "../billing/team-plan-job.ts";
import { domainOf, isPublicMailDomain } from "./domains.ts";
import { accessGained, accessLost, logActivity, teamChanged, teamInfo, teamUserIds, type TeamActor } from "./teams.ts";

/**
 * The owner makes a member an admin or an admin a member, or (`owner`) offers them the team; the
 * owner cannot set their own role. A hand-over needs the new owner's consent, since the team's
 * shared spend pool is its owner's billing account: the offer changes nothing but the team's
 * `handover` until the member named accepts it by setting their own role to `owner`. Then they are
 * the owner (their account pays the pool from then on) and the old owner an admin, in one step.
 * The owner setting the offered member's role (admin or member) withdraws the offer; offering the
 * team to another member replaces it; the member leaving or being removed drops it.
 */
export async function setTeamMemberRole(team: TeamActor, memberId: string, role: "admin" | "member" | "owner"): Promise<TTeamInfo> {
  const outcome = await db().$transaction(async (tx) => {
    await lockRow(tx, "Team", team.teamId);
    const target = await tx.teamMember.findFirst({ where: { id: memberId, teamId: team.teamId } });
    if (!target) throw notFound("Member");
    const current = await tx.team.findUniqueOrThrow({ where: { id: team.teamId }, select: { ownerId: true, handoverToId: true } });
    if (team.role !== "owner") {
      // Anyone but the owner may only accept the hand-over offered to them.
      if (target.id !== team.memberId || role !== "owner") throw new ApiError("FORBIDDEN", "Only the team's owner may change roles", { role: team.role });
      if (current.handoverToId !== team.memberId)
        throw new ApiError("FORBIDDEN", "The owner has not offered you the team: they offer it by setting your role to owner", { role: team.role, reason: "no_handover_offer" });
      await tx.teamMember.updateMany({ where: { teamId: team.teamId, role: "owner" }, data: { role: "admin" } });
      await tx.teamMember.update({ where: { id: target.id }, data: { role: "owner" } });
      await tx.team.update({ where: { id: team.teamId }, data: { ownerId: target.userId, handoverToId: null, handoverAt: null } });
      await logActivity(tx, team.teamId, { kind: "owner_changed", actorId: team.caller.userId, userId: target.userId, data: { reason: "handed_over", previousOwnerId: current.ownerId } });
      return { callerRole: "owner" as const, previousOwnerId: current.ownerId };
    }
    if (target.role === "owner") throw new ApiError("CONFLICT", "The owner's role cannot be changed");
    if (role === "owner") {
      // The offer: nothing moves until the member accepts it.
      if (current.handoverToId === target.id) return { callerRole: team.role };
      await tx.team.update({ where: { id: team.teamId }, data: { handoverToId: target.id, handoverAt: new Date() } });
      await logActivity(tx, team.teamId, { kind: "owner_offered", actorId: team.caller.userId, userId: target.userId });
      return { callerRole: team.role };
    }
    if (current.handoverToId === target.id) {
      await tx.team.update({ where: { id: team.teamId }, data: { handoverToId: null, handoverAt: null } });
      await logActivity(tx, team.teamId, { kind: "owner_offer_withdrawn", actorId: team.caller.userId, userId: target.userId });
    }
    if (target.role !== role) {
      await tx.teamMember.update({ where: { id: memberId }, data: { role } });
      await logActivity(tx, team.teamId, { kind: "role_changed", actorId: team.caller.userId, userId: target.userId, data: { from: target.role, to: role } });
    }
    return { callerRole: team.role };
  });
  await teamChanged(team.teamId);
  // The old owner is a member of someone else's team now: a paid plan of their own is no longer the pool's.
  if (outcome.previousOwnerId) await queueEndTeamMemberPlan(outcome.previousOwnerId);
  return teamInfo(team.teamId, outcome.callerRole);
}

/**
 * A member leaves (memberId is their own), or the owner removes a member. The owner cannot leave
 * a team that has other members (409: remove them first); the owner leaving alone dissolves the
 * team. The removed user loses the team project at once, live connections included; if the team
 * project was the removed user's own, it stops being the team project for everyone.
 */
export async function removeTeamMember(team: TeamActor, memberId: string): Promise<null> {
  const outcome = await db().$transaction(async (tx) => {
    await lockRow(tx, "Team", team.teamId);
    const target = await tx.teamMember.findFirst({ where: { id: memberId, teamId: team.teamId }, include: { user: { select: { email: true } } } });
    if (!target) throw notFound("Member");
    const self = target.id === team.memberId;
    if (!self && team.role !== "owner") throw new ApiError("FORBIDDEN", "Only the team's owner may remove members; a member may leave", { role: team.role });
    const current = await tx.team.findUniqueOrThrow({ where: { id: team.teamId }, select: { projectId: true, project: { select: { ownerId: true } } } });
    const everyone = (await tx.teamMember.findMany({ where: { teamId: team.teamId }, select: { userId: true } })).map((m) => m.userId);
    if (target.role === "owner") {
      if (everyone.length > 1) throw new ApiError("CONFLICT", "The owner cannot leave while the team has other members: remove them first");
      await tx.team.delete({ where: { id: team.teamId } });
      return { lost: [] as string[], projectId: current.projectId, removed: target.userId, dissolved: true };
    }
    await tx.teamMember.delete({ where: { id: target.id } });
    await logActivity(tx, team.teamId, { kind: self ? "left" : "removed", actorId: team.caller.userId, userId: target.userId, data: { email: target.user.email } });
    if (current.projectId && current.project?.ownerId === target.userId) {
      // The team project was theirs: it goes with them.
      await tx.team.update({ where: { id: team.teamId }, data: { projectId: null } });
      await logActivity(tx, team.teamId, { kind: "project_set", actorId: team.caller.userId, data: { projectId: null, reason: "owner_left" } });
      return { lost: everyone.filter((u) => u !== target.userId), projectId: current.projectId, alsoRemoved: target.userId, removed: target.userId };
    }
    return { lost: [target.userId], projectId: current.projectId, removed: target.userId };
  });
  if (outcome.projectId) {
    await accessLost(outcome.lost, outcome.projectId);
    // The removed owner of the project keeps it; only their project list needs a refresh.
    if (outcome.alsoRemoved) accessGained([outcome.alsoRemoved], outcome.projectId);
  }
  if (outcome.dissolved) runtime().bus.publish({ type: "team.updated", userId: outcome.removed, data: { teamId: team.teamId } });
  else await teamChanged(team.teamId, [outcome.removed]);
  return null;
}

/**
 * Owner or admin: makes one of the caller's own projects the team project (every member writes
 * it), or clears it (`projectId` null or left out). Members lose a replaced or cleared project at
 * once, live connections included.
 */
export async function setTeamProject(team: TeamActor, projectId: string | null | undefined): Promise<TTeamInfo> {
  const next = projectId ?? null;
  if (next) await getProjectOrThrow(team.caller, next, "owner");
  const before = await db().$transaction(async (tx) => {
    await lockRow(tx, "Team", team.teamId);
    const current = await tx.team.findUniqueOrThrow({ where: { id: team.teamId }, select: { projectId: true } });
    if (current.projectId === next) return { previous: current.projectId, changed: false };
    if (next) {
      const other = await tx.team.findFirst({ where: { projectId: next, NOT: { id: team.teamId } }, select: { id: true } });
      if (other) throw new ApiError("CONFLICT", "That project is already another team's shared project");
    }
    await tx.team.update({ where: { id: team.teamId }, data: { projectId: next } });
    await logActivity(tx, team.teamId, { kind: "project_set", actorId: team.caller.userId, data: { projectId: next, previous: current.projectId } });
    return { previous: current.projectId, changed: true };
  });
  if (before.changed) {
    const members = await teamUserIds(team.teamId);
    if (before.previous) await accessLost(members, before.previous);
    if (next) accessGained(members, next);
    await teamChanged(team.teamId);
  }
  return teamInfo(team.teamId, team.role);
}

/**
 * Owner only: turns auto-join on or off for verified addresses on the owner's own email domain.
 * A public mail domain (gmail.com …) can never be one (422), nor a domain another team joins by (409).
 */
export async function setTeamJoinDomain(team: TeamActor, enabled: boolean): Promise<TTeamInfo> {
  const owner = await db().user.findUniqueOrThrow({ where: { id: team.caller.userId }, select: { email: true, emailVerified: true } });
  const domain = domainOf(owner.email);
  if (enabled) {
    if (!domain || isPublicMailDomain(domain))
      throw new ApiError("UNPROCESSABLE_CONTENT", `${domain ?? "Your email's domain"} is a public mail domain; only a company domain can be a join domain`, { domain, reason: "public_domain" });
    if (!owner.emailVerified)
      throw new ApiError("UNPROCESSABLE_CONTENT", "Your email address is not verified yet: sign in with it once by email link", { domain, reason: "unverified_email" });
  }
  await db().$transaction(async (tx) => {
    await lockRow(tx, "Team", team.teamId);
    if (enabled) {
      const other = await tx.team.findFirst({ where: { joinDomain: domain, joinDomainEnabled: true, NOT: { id: team.teamId } }, select: { id: true } });
      if (other) throw new ApiError("CONFLICT", `Another team already joins by ${domain}`);
    }
    await tx.team.update({ where: { id: team.teamId }, data: { joinDomainEnabled: enabled, joinDomain: enabled ? domain : null } });
    await logActivity(tx, team.teamId, { kind: "join_domain_set", actorId: team.caller.userId, data: { enabled, domain } });
  });
  await teamChanged(team.teamId);
  return teamInfo(team.teamId, team.role);
}

/**
 * Auto-join at sign-in (auth.ts) and user creation: a user with a verified address, in no team,
 * whose domain is a team's enabled join domain, becomes a member of it (logged as `joined` with
 * `via: "domain"`). Never fails the sign-in: problems are logged. Takes the runtime explicitly,
 * since auth.ts runs in Next's bundle (server/http/bridge.ts).
 */
export async function joinTeamByDomain(userId: string, rt: Pick<Runtime, "prisma" | "bus" | "jobs"> = runtime()): Promise<string | null> {
  try {
    const user = await rt.prisma.user.findUnique({ where: { id: userId }, select: { email: true, emailVerified: true, teamMembership: { select: { id: true } } } });
    if (!user?.emailVerified || user.teamMembership) return null;
    const domain = domainOf(user.email);
    if (!domain || isPublicMailDomain(domain)) return null;
    const team = await rt.prisma.team.findFirst({ where: { joinDomain: domain, joinDomainEnabled: true }, select: { id: true, projectId: true } });
    if (!team) return null;
    await rt.prisma.$transaction(async (tx: Prisma.TransactionClient) => {
      await lockRow(tx, "Team", team.id);
      if (await tx.teamMember.findUnique({ where: { userId }, select: { id: true } })) return;
      await tx.teamMember.create({ data: { teamId: team.id, userId, role: "member", via: "domain" } });
      // An invite to this address that was still open is answered by joining: no longer pending.
      await tx.teamInvite.updateMany({ where: { teamId: team.id, email: user.email.trim().toLowerCase(), status: "pending" }, data: { status: "accepted", acceptedAt: new Date(), acceptedById: userId } });
      await logActivity(tx, team.id, { kind: "joined", actorId: userId, userId, data: { via: "domain", domain } });
    });
    if (team.projectId) rt.bus.publish({ type: "project.updated", userId, data: { action: "team", projectId: team.projectId, access: "gained" } });
    const audience = (await rt.prisma.teamMember.findMany({ where: { teamId: team.id }, select: { userId: true } })).map((m) => m.userId);
    rt.bus.publish({ type: "team.updated", audience, data: { teamId: team.id } });
    // The pool pays for their turns now: a paid plan of their own ends at its period's end (by a
    // job, so the sign-in does not wait on Stripe).
    await queueEndTeamMemberPlan(userId, rt);
    return team.id;
  } catch (err) {
    log.error("joining a team by domain failed", { userId, error: String(err) });
    return null;
  }
}
