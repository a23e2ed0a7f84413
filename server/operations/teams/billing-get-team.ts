import { ZTeamInfoOrNull } from "../../../lib/schemas/teams.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";
import { getTeam } from "../../services/teams/teams.ts";

export default defineOperation({
  id: "billing_getTeam",
  method: "GET",
  path: "/billing/team",
  tag: "Teams",
  summary: "The caller's team (as owner, admin or member), or null",
  description: "Any member. `invites` and `activity` are filled for the owner and admins only.",
  auth: USER_CREDENTIAL,
  response: ZTeamInfoOrNull,
  handler: ({ caller }) => getTeam(caller),
});
