import { ZTeamInfoOrNull, ZTeamInviteTokenInput } from "../../../lib/schemas/teams.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";
import { acceptTeamInvite } from "../../services/teams/invites.ts";

export default defineOperation({
  id: "billing_acceptTeamInvite",
  method: "POST",
  path: "/billing/team/invites/accept",
  tag: "Teams",
  summary: "Join a team with an invite's token",
  description:
    "Signed-in user whose email is the invited address (422 otherwise). Unknown token 404; accepted, revoked or expired 409 with `data.status`; already in a team 409. Any refusal changes nothing.",
  auth: USER_CREDENTIAL,
  errors: ["NOT_FOUND", "CONFLICT", "UNPROCESSABLE_CONTENT"],
  body: ZTeamInviteTokenInput,
  response: ZTeamInfoOrNull,
  handler: ({ caller, body }) => acceptTeamInvite(caller, body.token),
});
