import { ZTeamUsageResponse, ZUsageQuery } from "../../../lib/schemas/billing.ts";
import { getTeamUsage } from "../../services/teams/usage.ts";
import { OWNER_OR_ADMIN, defineTeamOperation } from "./team-role.ts";

export default defineTeamOperation({
  id: "usage_getTeamUsage",
  method: "GET",
  path: "/usage/team",
  tag: "Usage",
  summary: "Per-member spend of the team in a date range",
  description:
    "Owner or admin. Every current member's agent turns in `[from, to)` (ISO 8601; default the last 30 days, at most 366 days), counted from when they joined: turns, tokens and cost in total and per UTC day, most spend first; members without turns have zeros. Until turns draw on a shared team pool, a member's spend is the cost of their own turns while in the team (docs/api.md \"Team usage\").",
  query: ZUsageQuery,
  response: ZTeamUsageResponse,
  teamRoles: OWNER_OR_ADMIN,
  handler: ({ team, query }) => getTeamUsage(team, query),
});
