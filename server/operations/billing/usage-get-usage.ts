import { ZUsageQuery, ZUsage } from "../../../lib/schemas/billing.ts";
import { getUsage } from "../../services/billing/usage.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "usage_getUsage",
  method: "GET",
  path: "/usage",
  tag: "Usage",
  summary: "Agent usage in a date range",
  description:
    "Turns, tokens and cost in `[from, to)` (ISO 8601; default the last 30 days, at most 366 days), in total, per UTC day and per project.",
  auth: USER_CREDENTIAL,
  query: ZUsageQuery,
  response: ZUsage,
  handler: ({ caller, query }) => getUsage(caller.userId, query),
});
