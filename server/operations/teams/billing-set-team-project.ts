import { ZTeamInfoOrNull, ZTeamSetProjectInput } from "../../../lib/schemas/teams.ts";
import { setTeamProject } from "../../services/teams/members.ts";
import { OWNER_OR_ADMIN, defineTeamOperation } from "./team-role.ts";

export default defineTeamOperation({
  id: "billing_setTeamProject",
  method: "PATCH",
  path: "/billing/team/project",
  tag: "Teams",
  summary: "Set or clear the team's shared project",
  description:
    "Owner or admin. `projectId` must be one of the caller's own projects (404 when unreadable, 403 when shared with them); every member then reads and writes it. `null` or no `projectId` clears it. Members lose a cleared or replaced project at once, live connections included. Another team's project is 409.",
  errors: ["NOT_FOUND", "CONFLICT"],
  body: ZTeamSetProjectInput,
  response: ZTeamInfoOrNull,
  teamRoles: OWNER_OR_ADMIN,
  handler: ({ team, body }) => setTeamProject(team, body.projectId),
});
