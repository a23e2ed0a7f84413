import type { Caller } from "../../auth/caller.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { lockRow } from "../../db/lock.ts";
import { ApiError } from "../../http/errors.ts";
import type { TTeamInfo, TTeamRole } from "../../../lib/schemas/teams.ts";
import { db, runtime } from "../../runtime.ts";
import { domainOf, isPublicMailDomain } from "./domains.ts";

// The caller's team and role (docs/api.md "Teams"). A user is in at most one team; the owner has
// a member row too. Role rules are declared on the operations (server/operations/teams/team-role.ts)
// and checked here, in one place.

export type TeamActor = { caller: Caller; teamId: string; memberId: string; role: TTeamRole };

export function notInTeam(): ApiError {
  return new ApiError("NOT_FOUND", "You are not in a team");
}

/** The caller as a member of their team: 404 when in none, 403 when their role is not in `roles`. */
export async function requireTeamRole(caller: Caller, roles: readonly TTeamRole[]): Promise<TeamActor> {
  const m = await db().teamMember.findUnique({ where: { userId: caller.userId }, select: { id: true, teamId: true, role: true } });
  if (!m) throw notInTeam();
  if (!roles.includes(m.role)) throw new ApiError("FORBIDDEN", `Only the team's ${roles.join(" or ")} may do this`, { role: m.role });
  return { caller, teamId: m.teamId, memberId: m.id, role: m.role };
}

/**
 * The caller's team, created with them as owner when they are in none (CONVENTIONS.md: a user's
 * first invite creates their team). Serialised per user, so two first invites make one team.
 */
export async function ensureTeam(caller: Caller, name: string | undefined): Promise<void> {
  await db().$transaction(async (tx) => {
    await lockRow(tx, "User", caller.userId);
    if (await tx.teamMember.findUnique({ where: { userId: caller.userId }, select: { id: true } })) return;
    const teamName = name ?? `${caller.name?.trim() || caller.email.split("@")[0]}'s team`;
    await tx.team.create({
      data: {
        ownerId: caller.userId,
        name: teamName.slice(0, 200),
        members: { create: { userId: caller.userId, role: "owner", via: "owner" } },
        activity: { create: { kind: "created", actorId: caller.userId, userId: caller.userId } },
      },
    });
  });
}

export function logActivity(
  tx: Prisma.TransactionClient,
  teamId: string,
  entry: { kind: string; actorId?: string | null; userId?: string | null; data?: Record<string, unknown> },
) {
  return tx.teamActivity.create({
    data: { teamId, kind: entry.kind, actorId: entry.actorId ?? null, userId: entry.userId ?? null, data: (entry.data ?? {}) as Prisma.InputJsonValue },
  });
}

const ROLE_ORDER: Record<TTeamRole, number> = { owner: 0, admin: 1, member: 2 };

/** TeamInfo as a member with `role` sees it: invites and the log only for the owner and admins. */
export async function teamInfo(teamId: string, role: TTeamRole): Promise<TTeamInfo> {
  const manager = role !== "member";
  const team = await db().team.findUnique({
    where: { id: teamId },
    include: {
      owner: { select: { email: true } },
      project: { select: { id: true, name: true } },
      handoverTo: { select: { id: true, userId: true, user: { select: { email: true, name: true } } } },
      members: { include: { user: { select: { email: true, name: true } } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
      invites: manager ? { where: { status: "pending" }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] } : false,
      activity: manager ? { orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 50 } : false,
    },
  });
  if (!team) throw notInTeam();
  const now = Date.now();
  const ownerDomain = domainOf(team.owner.email);
  const eligible = ownerDomain !== null && !isPublicMailDomain(ownerDomain);
  return {
    id: team.id,
    name: team.name,
    ownerId: team.ownerId,
    role,
    members: team.members
      .map((m) => ({
        id: m.id,
        userId: m.userId,
        email: m.user.email,
        name: m.user.name,
        role: m.role,
        via: m.via as "owner" | "invite" | "domain",
        joinedAt: m.createdAt.getTime(),
      }))
      .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.joinedAt - b.joinedAt),
    invites: (team.invites ?? []).map((i) => ({
      id: i.id,
      email: i.email,
      status: i.expiresAt.getTime() > now ? ("pending" as const) : ("expired" as const),
      invitedById: i.invitedById,
      createdAt: i.createdAt.getTime(),
      expiresAt: i.expiresAt.getTime(),
    })),
    project: team.project,
    joinDomain: { enabled: team.joinDomainEnabled, domain: eligible ? ownerDomain : null, eligible },
    activity: (team.activity ?? []).map((a) => ({
      id: a.id,
      kind: a.kind,
      actorId: a.actorId,
      userId: a.userId,
      data: (a.data ?? {}) as Record<string, unknown>,
      createdAt: a.createdAt.getTime(),
    })),
    handover: team.handoverTo
      ? { memberId: team.handoverTo.id, userId: team.handoverTo.userId, email: team.handoverTo.user.email, name: team.handoverTo.user.name, offeredAt: (team.handoverAt ?? team.updatedAt).getTime() }
      : null,
    createdAt: team.createdAt.getTime(),
  };
}

export async function getTeam(caller: Caller): Promise<TTeamInfo | null> {
  const m = await db().teamMember.findUnique({ where: { userId: caller.userId }, select: { teamId: true, role: true } });
  return m ? teamInfo(m.teamId, m.role) : null;
}

/** The team's members' user ids (the audience of its project events). */
export async function teamUserIds(teamId: string): Promise<string[]> {
  const rows = await db().teamMember.findMany({ where: { teamId }, select: { userId: true } });
  return rows.map((r) => r.userId);
}

/**
 * After a commit that took a team project away from users (cleared, replaced, a member removed):
 * their connections leave the rooms they may no longer read before the response goes out
 * (bus.affect resolves once done), and their project lists are told to refresh.
 */
export async function accessLost(userIds: string[], projectId: string): Promise<void> {
  const { bus } = runtime();
  await Promise.all(userIds.map((userId) => bus.affect({ kind: "access.lost", userId })));
  for (const userId of userIds) bus.publish({ type: "project.updated", userId, data: { action: "team", projectId, access: "lost" } });
}

/** After a commit that gave users a team project: their project lists refresh. */
export function accessGained(userIds: string[], projectId: string): void {
  const { bus } = runtime();
  for (const userId of userIds) bus.publish({ type: "project.updated", userId, data: { action: "team", projectId, access: "gained" } });
}

/**
 * After a commit that changed a team: `team.updated` with `data: {teamId}` to every member's own
 * connections, and to `alsoTo` (a user who just left or was removed), so team pages follow.
 */
export async function teamChanged(teamId: string, alsoTo: string[] = []): Promise<void> {
  const audience = [...new Set([...(await teamUserIds(teamId)), ...alsoTo])];
  if (audience.length) runtime().bus.publish({ type: "team.updated", audience, data: { teamId } });
}
