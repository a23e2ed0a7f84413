import { ZTeamInviteTokenInput, ZTeamJoinResult } from "../../../lib/schemas/teams.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";
import { acceptTeamInvite } from "../../services/teams/invites.ts";

export default defineOperation({
  id: "billing_acceptTeamInvite",
  method: "POST",
  path: "/billing/team/invites/accept",
  tag: "Teams",
  summary: "Join a team with an invite's token",
  description:
    "Signed-in user whose email is the invited address (422 otherwise). Unknown token 404; accepted, revoked or expired 409 with `data.status`; already in a team 409. Any refusal changes nothing. The team's shared pool pays for a member's turns, so joining sets a paid plan of the caller's own to end at its period's end (Stripe `cancel_at_period_end`: no renewal, nothing refunded, the plan's time left unused); the answer is the team plus `ownPlan`, that plan as it is now. While in a team they do not own, subscribing or changing tier is 409 `data.reason: \"paid_by_team\"`.",
  auth: USER_CREDENTIAL,
  errors: ["NOT_FOUND", "CONFLICT", "UNPROCESSABLE_CONTENT"],
  body: ZTeamInviteTokenInput,
  response: ZTeamJoinResult,
  handler: ({ caller, body }) => acceptTeamInvite(caller, body.token),
});
