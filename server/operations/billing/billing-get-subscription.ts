import { ZSubscriptionInfo } from "../../../lib/schemas/billing.ts";
import { getSubscription } from "../../services/billing/subscriptions.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_getSubscription",
  method: "GET",
  path: "/billing/subscription",
  tag: "Billing",
  summary: "The caller's plan and subscription status",
  description:
    "`tier` is `free` without a paid subscription. Periods come from Stripe's subscription item (`current_period_start`/`end`).",
  auth: USER_CREDENTIAL,
  response: ZSubscriptionInfo,
  handler: ({ caller }) => getSubscription(caller),
});
