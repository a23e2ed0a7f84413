import { ZCreateSubscriptionInput, ZSubscriptionResult } from "../../../lib/schemas/billing.ts";
import { createSubscription } from "../../services/billing/subscriptions.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_createSubscription",
  method: "POST",
  path: "/billing/subscription",
  tag: "Billing",
  summary: "Subscribe to a paid plan",
  description:
    "Charges the first month to `paymentMethodId` (a saved card) or the default card now; a decline is 402 with Stripe's reason and subscribes nothing; no card at all is 402. An existing paid subscription is 409 (change its tier with PATCH). Idempotent by `Idempotency-Key`.",
  auth: USER_CREDENTIAL,
  idempotent: true,
  errors: ["PAYMENT_REQUIRED", "NOT_FOUND", "CONFLICT"],
  body: ZCreateSubscriptionInput,
  response: ZSubscriptionResult,
  handler: ({ caller, body, request }) => createSubscription(caller, body, request.headers.get("idempotency-key")),
});
