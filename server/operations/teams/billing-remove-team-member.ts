import { ZNull } from "../../../lib/schemas/common.ts";
import { ZTeamMemberParams, ZTeamRemoveMemberInput } from "../../../lib/schemas/teams.ts";
import { removeTeamMember } from "../../services/teams/members.ts";
import { ANY_MEMBER, defineTeamOperation } from "./team-role.ts";

export default defineTeamOperation({
  id: "billing_removeTeamMember",
  method: "DELETE",
  path: "/billing/team/members/{memberId}",
  tag: "Teams",
  summary: "Remove a member (owner), or leave the team (your own memberId)",
  description:
    "Any member may leave; only the owner removes others (403 for admins and members). The owner cannot leave while others remain (409); leaving alone dissolves the team. The removed user loses the team project at once, live connections included. The body may repeat memberId.",
  errors: ["NOT_FOUND", "CONFLICT"],
  params: ZTeamMemberParams,
  body: ZTeamRemoveMemberInput,
  response: ZNull,
  teamRoles: ANY_MEMBER,
  handler: ({ team, params }) => removeTeamMember(team, params.memberId),
});
