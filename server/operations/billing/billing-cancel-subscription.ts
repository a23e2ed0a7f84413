import { ZCancelSubscriptionInput, ZSubscriptionResult } from "../../../lib/schemas/billing.ts";
import { cancelSubscription } from "../../services/billing/subscriptions.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_cancelSubscription",
  method: "DELETE",
  path: "/billing/subscription",
  tag: "Billing",
  summary: "Cancel the subscription",
  description:
    "`atPeriodEnd: true` (default) keeps the plan until the paid period ends; `false` ends it now (the free tier applies at once). No paid subscription is 409.",
  auth: USER_CREDENTIAL,
  errors: ["CONFLICT"],
  body: ZCancelSubscriptionInput,
  response: ZSubscriptionResult,
  handler: ({ caller, body }) => cancelSubscription(caller, body),
});
