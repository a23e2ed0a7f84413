import { ZTeamAddMemberInput, ZTeamInfoOrNull } from "../../../lib/schemas/teams.ts";
import { addTeamMember, refuseOwnAddress } from "../../services/teams/invites.ts";
import { OWNER_OR_ADMIN, defineTeamOperation } from "./team-role.ts";

export default defineTeamOperation({
  id: "billing_addTeamMember",
  method: "POST",
  path: "/billing/team/members",
  tag: "Teams",
  summary: "Invite an address to the team by email",
  description:
    "Owner or admin; a caller in no team gets one first, as its owner (named `teamName`). Mails a single-use join link (`/invite/<token>`, 7 days) in the background. Inviting an address with a pending invite sends a new link (the old one stops working). A member's address is 409, the caller's own 400. Rate-limited (`invite`). Accepts `Idempotency-Key`.",
  rateLimit: "invite",
  idempotent: true,
  errors: ["CONFLICT"],
  body: ZTeamAddMemberInput,
  response: ZTeamInfoOrNull,
  teamRoles: OWNER_OR_ADMIN,
  createsTeam: (body) => body.teamName,
  check: ({ caller, body }) => refuseOwnAddress(caller, body),
  handler: ({ team, body }) => addTeamMember(team, body),
});
