import { ZTeamInfoOrNull, ZTeamSetJoinDomainInput } from "../../../lib/schemas/teams.ts";
import { setTeamJoinDomain } from "../../services/teams/members.ts";
import { OWNER, defineTeamOperation } from "./team-role.ts";

export default defineTeamOperation({
  id: "billing_setTeamJoinDomain",
  method: "PATCH",
  path: "/billing/team/join-domain",
  tag: "Teams",
  summary: "Turn auto-join by the owner's company email domain on or off",
  description:
    "Owner only. While on, a user with a verified address on the owner's domain who is in no team joins as a member when they sign in. A public mail domain (gmail.com …) is 422, so is an unverified owner address; a domain another team joins by is 409.",
  errors: ["CONFLICT", "UNPROCESSABLE_CONTENT"],
  body: ZTeamSetJoinDomainInput,
  response: ZTeamInfoOrNull,
  teamRoles: OWNER,
  handler: ({ team, body }) => setTeamJoinDomain(team, body.enabled),
});
