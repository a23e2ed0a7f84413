import { ZUpdateSubscriptionInput, ZSubscriptionResult } from "../../../lib/schemas/billing.ts";
import { updateSubscription } from "../../services/billing/subscriptions.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_updateSubscription",
  method: "PATCH",
  path: "/billing/subscription",
  tag: "Billing",
  summary: "Upgrade or downgrade the plan",
  description:
    "Prorated now: an upgrade charges the difference for the rest of the period to the subscription's card (`chargedNowCents`; a decline is 402 and changes nothing); a downgrade leaves the unused difference as credit at Stripe for the next invoice. Also undoes a pending cancellation. The same tier (not cancelling) or no subscription is 409.",
  auth: USER_CREDENTIAL,
  idempotent: true,
  errors: ["PAYMENT_REQUIRED", "CONFLICT"],
  body: ZUpdateSubscriptionInput,
  response: ZSubscriptionResult,
  handler: ({ caller, body, request }) => updateSubscription(caller, body, request.headers.get("idempotency-key")),
});
