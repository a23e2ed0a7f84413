import { ZTeamInfoOrNull, ZTeamMemberParams, ZTeamSetRoleInput } from "../../../lib/schemas/teams.ts";
import { setTeamMemberRole } from "../../services/teams/members.ts";
import { ANY_MEMBER, defineTeamOperation } from "./team-role.ts";

export default defineTeamOperation({
  id: "billing_setTeamMemberRole",
  method: "PATCH",
  path: "/billing/team/members/{memberId}/role",
  tag: "Teams",
  summary: "Make a member an admin, or an admin a member; offer the team to a member, or accept it",
  description:
    "The owner sets a member's role; `memberId` is a member's `id` in TeamInfo; another team's is 404; the owner's own role is 409. `role: \"owner\"` from the owner offers the team to that member and moves nothing: the team's shared spend pool is its owner's billing account (plan, usage windows, credit), so it changes hands only with the new owner's consent. The offer shows as `handover` in TeamInfo. The member named accepts by setting their own role to `owner` (their own memberId): they become the owner, their account pays the pool from then on, and the old owner becomes an admin (whose own paid plan is then set to end at its period's end, like any member's). Anyone else but the owner is 403 (`data.reason: \"no_handover_offer\"` when accepting without an offer). The owner withdraws an offer by setting that member's role to `admin` or `member`; offering the team to another member replaces it; the member leaving or being removed drops it.",
  errors: ["NOT_FOUND", "CONFLICT"],
  params: ZTeamMemberParams,
  body: ZTeamSetRoleInput,
  response: ZTeamInfoOrNull,
  teamRoles: ANY_MEMBER,
  handler: ({ team, params, body }) => setTeamMemberRole(team, params.memberId, body.role),
});
