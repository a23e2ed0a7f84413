import { z } from "zod";
import { ZSubscriptionInfo } from "./billing.ts";
import { ZId, ZName, ZTimestamp } from "./common.ts";
import { ZEmail } from "./projects.ts";

// Teams (SPEC.md §4.5, docs/api.md "Teams").

export const TEAM_ROLES = ["owner", "admin", "member"] as const;
export const ZTeamRole = z.enum(TEAM_ROLES).describe("owner (one per team), admin, or member");
export type TTeamRole = z.infer<typeof ZTeamRole>;

export const ZTeamMemberInfo = z.object({
  id: ZId.describe("The membership's id: the `memberId` of the member operations"),
  userId: ZId,
  email: z.string(),
  name: z.string().nullable(),
  role: ZTeamRole,
  via: z.enum(["owner", "invite", "domain"]).describe("How the member joined: created the team, accepted an invite, or by the join domain"),
  joinedAt: ZTimestamp,
});

export const ZTeamInviteInfo = z.object({
  id: ZId.describe("The invite's id, for billing_revokeTeamInvite"),
  email: z.string(),
  status: z.enum(["pending", "expired"]),
  invitedById: ZId,
  createdAt: ZTimestamp,
  expiresAt: ZTimestamp,
});

export const ZTeamActivity = z.object({
  id: ZId,
  kind: z.string().describe("created, invited, invite_revoked, joined, left, removed, role_changed, project_set, join_domain_set, owner_offered (userId: the member offered the team), owner_offer_withdrawn, owner_changed (the member offered the team accepted it, or the owner deleted their account; userId is the new owner)"),
  actorId: ZId.nullable(),
  userId: ZId.nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: ZTimestamp,
});

export const ZTeamInfo = z
  .object({
    id: ZId,
    name: z.string(),
    ownerId: ZId,
    role: ZTeamRole.describe("The caller's own role in the team"),
    members: z.array(ZTeamMemberInfo).describe("Owner first, then by joining time"),
    invites: z.array(ZTeamInviteInfo).describe("Pending invites (newest first); shown to the owner and admins only, empty for members"),
    project: z.object({ id: ZId, name: z.string() }).nullable().describe("The shared project, or null"),
    joinDomain: z.object({
      enabled: z.boolean(),
      domain: z.string().nullable().describe("The owner's email domain the switch applies to; null when it is a public mail domain"),
      eligible: z.boolean().describe("Whether the owner's domain may be a join domain (not a public mail domain)"),
    }),
    activity: z.array(ZTeamActivity).describe("The newest 50 entries of the team's log; owner and admins only, empty for members"),
    handover: z
      .object({ memberId: ZId, userId: ZId, email: z.string(), name: z.string().nullable(), offeredAt: ZTimestamp })
      .nullable()
      .describe(
        "The hand-over the owner offered and the member named has not accepted yet, or null. Nothing moves until that member accepts (billing_setTeamMemberRole on their own memberId with `role: \"owner\"`): then the team's shared spend pool is paid by their account",
      ),
    createdAt: ZTimestamp,
  })
  .meta({ id: "TeamInfo" });

export const ZTeamInfoOrNull = ZTeamInfo.nullable().describe("The team, or null when the caller is in none");
export type TTeamInfo = z.infer<typeof ZTeamInfo>;

export const ZTeamJoinResult = ZTeamInfo.extend({
  ownPlan: ZSubscriptionInfo.nullable().describe(
    "The caller's own plan now that the team's shared pool pays for their turns: a paid plan is set to end at its period's end (`cancelAtPeriodEnd: true`, no renewal, nothing refunded); null on the free tier (or when the change is still being made at Stripe, retried in the background)",
  ),
}).meta({ id: "TeamJoinResult" });
export type TTeamJoinResult = z.infer<typeof ZTeamJoinResult>;

export const ZTeamAddMemberInput = z
  .object({
    email: ZEmail.describe("The address to invite (case-insensitive)"),
    teamName: ZName.optional().describe("Name of the team when this first invite creates it; ignored afterwards"),
  })
  .meta({ id: "TeamAddMemberInput" });

export const ZTeamRevokeInviteInput = z.object({ inviteId: ZId }).meta({ id: "TeamRevokeInviteInput" });

export const ZTeamSetProjectInput = z
  .object({ projectId: ZId.nullable().optional().describe("One of the caller's own projects; null or omitted clears the shared project") })
  .meta({ id: "TeamSetProjectInput" });

export const ZTeamSetJoinDomainInput = z.object({ enabled: z.boolean() }).meta({ id: "TeamSetJoinDomainInput" });

/** Invite tokens: `tti_` and 43 base64url characters; anything else is simply not found. */
export const ZInviteToken = z.string().min(1).max(200);
export const ZTeamInviteParams = z.object({ token: ZInviteToken });
export const ZTeamInviteTokenInput = z.object({ token: ZInviteToken }).meta({ id: "TeamInviteTokenInput" });

export const ZTeamInvitePreview = z
  .object({
    status: z.enum(["pending", "accepted", "revoked", "expired"]).describe("Only a pending invite can be accepted"),
    email: z.string().describe("The invited address: accepting needs a signed-in user with this email"),
    teamName: z.string(),
    invitedBy: z.object({ name: z.string().nullable(), email: z.string() }),
    project: z.object({ name: z.string() }).nullable().describe("The team's shared project, if any"),
    memberCount: z.number().int(),
    expiresAt: ZTimestamp,
  })
  .meta({ id: "TeamInvitePreview" });

export const ZTeamMemberParams = z.object({ memberId: ZId });
export const ZTeamSetRoleInput = z
  .object({
    role: z
      .enum(["admin", "member", "owner"])
      .describe(
        "`owner` offers the team to the member (the owner calling) or accepts the offer (the member named, on their own memberId): on acceptance they become its owner, paying the shared spend pool, and the old owner an admin. The owner's own role cannot be set",
      ),
  })
  .meta({ id: "TeamSetRoleInput" });
export const ZTeamRemoveMemberInput = z.object({ memberId: ZId }).meta({ id: "TeamRemoveMemberInput" });
