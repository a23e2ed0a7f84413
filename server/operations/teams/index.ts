import type { AnyOperation } from "../../http/define.ts";
import acceptTeamInvite from "./billing-accept-team-invite.ts";
import addTeamMember from "./billing-add-team-member.ts";
import getTeam from "./billing-get-team.ts";
import previewTeamInvite from "./billing-preview-team-invite.ts";
import removeTeamMember from "./billing-remove-team-member.ts";
import revokeTeamInvite from "./billing-revoke-team-invite.ts";
import setTeamJoinDomain from "./billing-set-team-join-domain.ts";
import setTeamMemberRole from "./billing-set-team-member-role.ts";
import setTeamProject from "./billing-set-team-project.ts";
import getTeamUsage from "./usage-get-team-usage.ts";

export const teamOperations = [
  getTeam,
  addTeamMember,
  revokeTeamInvite,
  setTeamProject,
  setTeamJoinDomain,
  previewTeamInvite,
  acceptTeamInvite,
  setTeamMemberRole,
  removeTeamMember,
  getTeamUsage,
] satisfies AnyOperation[];
