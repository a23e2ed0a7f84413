import { ZTeamInviteParams, ZTeamInvitePreview } from "../../../lib/schemas/teams.ts";
import { defineOperation } from "../../http/define.ts";
import { previewTeamInvite } from "../../services/teams/invites.ts";

export default defineOperation({
  id: "billing_previewTeamInvite",
  method: "GET",
  path: "/billing/team/invites/{token}",
  tag: "Teams",
  summary: "What an invite link is about (no sign-in needed)",
  description: "No credential needed; reading does not consume the invite. An unknown token is 404; an accepted, revoked or expired one answers with its `status`.",
  auth: "none",
  errors: ["NOT_FOUND"],
  params: ZTeamInviteParams,
  response: ZTeamInvitePreview,
  handler: ({ params }) => previewTeamInvite(params.token),
});
