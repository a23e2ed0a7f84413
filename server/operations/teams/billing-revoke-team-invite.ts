import { ZTeamInfoOrNull, ZTeamRevokeInviteInput } from "../../../lib/schemas/teams.ts";
import { revokeTeamInvite } from "../../services/teams/invites.ts";
import { OWNER_OR_ADMIN, defineTeamOperation } from "./team-role.ts";

export default defineTeamOperation({
  id: "billing_revokeTeamInvite",
  method: "DELETE",
  path: "/billing/team/invites",
  tag: "Teams",
  summary: "Cancel a pending invite",
  description: "Owner or admin. The link stops working at once. Another team's invite is 404; an accepted or revoked one 409.",
  errors: ["NOT_FOUND", "CONFLICT"],
  body: ZTeamRevokeInviteInput,
  response: ZTeamInfoOrNull,
  teamRoles: OWNER_OR_ADMIN,
  handler: ({ team, body }) => revokeTeamInvite(team, body.inviteId),
});
