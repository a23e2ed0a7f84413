import { ZTeamInfoOrNull, ZTeamMemberParams, ZTeamSetRoleInput } from "../../../lib/schemas/teams.ts";
import { setTeamMemberRole } from "../../services/teams/members.ts";
import { OWNER, defineTeamOperation } from "./team-role.ts";

export default defineTeamOperation({
  id: "billing_setTeamMemberRole",
  method: "PATCH",
  path: "/billing/team/members/{memberId}/role",
  tag: "Teams",
  summary: "Make a member an admin, or an admin a member, or hand the team over",
  description:
    "Owner only. `memberId` is a member's `id` in TeamInfo; another team's is 404; the owner's own role is 409. `role: \"owner\"` hands the team over: that member becomes the owner and the caller an admin, in one step (the answer is the team as the caller, now an admin, sees it).",
  errors: ["NOT_FOUND", "CONFLICT"],
  params: ZTeamMemberParams,
  body: ZTeamSetRoleInput,
  response: ZTeamInfoOrNull,
  teamRoles: OWNER,
  handler: ({ team, params, body }) => setTeamMemberRole(team, params.memberId, body.role),
});
