import { ZUsageStatus } from "../../../lib/schemas/billing.ts";
import { getUsageStatus } from "../../services/billing/usage.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_getUsageStatus",
  method: "GET",
  path: "/billing/usage",
  tag: "Billing",
  summary: "Balance, monthly usage and the session and weekly windows",
  description:
    "Each window with its limit, use, what is left and when it resets (`session.resetsAt` is null while no session window is open: the next turn opens one). `canStartTurn` false means a new agent turn gets 402 `PAYMENT_REQUIRED` naming `blockedBy`.",
  auth: USER_CREDENTIAL,
  response: ZUsageStatus,
  handler: ({ caller }) => getUsageStatus(caller.userId),
});
