import { ZSubscriptionPlansResponse } from "../../../lib/schemas/billing.ts";
import { listPlans } from "../../services/billing/subscriptions.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_getSubscriptionPlans",
  method: "GET",
  path: "/billing/subscription/plans",
  tag: "Billing",
  summary: "Plans with prices and allowances",
  description:
    "Free and paid tiers: monthly price, the agent cost each covers per month, per session window (5 h from the first use after the last window ended) and per week (anchored at the subscription's start), and `changeNowCents`, what moving to that plan charges now.",
  auth: USER_CREDENTIAL,
  response: ZSubscriptionPlansResponse,
  handler: ({ caller }) => listPlans(caller),
});
