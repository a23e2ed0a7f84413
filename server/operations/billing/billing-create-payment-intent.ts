import { ZPaymentIntentInput, ZPaymentIntent } from "../../../lib/schemas/billing.ts";
import { createPaymentIntent } from "../../services/billing/payments.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_createPaymentIntent",
  method: "POST",
  path: "/billing/create-payment-intent",
  tag: "Billing",
  summary: "Add credit: a Stripe PaymentIntent",
  description:
    "With `paymentMethodId` (a saved card, or a fresh one from Stripe.js or the test-card form) the payment is confirmed now: success credits the balance before the answer (`balanceCents`); a declined card is 402 `PAYMENT_REQUIRED` with Stripe's reason in `message` and `data.declineCode`; a card that needs authentication answers `status: requires_action` with `nextAction.url`, the bank's 3-D Secure page (test mode: the stand-in's test page, which returns to a `return_url` query parameter with `payment_intent` and `redirect_status`; the webhook credits the balance once it succeeds). Without it, confirm `clientSecret` in the browser; the `payment_intent.succeeded` webhook credits the balance. Idempotent by `Idempotency-Key` (also Stripe's key): a retried request makes no second payment. Another user's card, or an unknown one, is 404, checked before anything is made at Stripe: a refused request leaves no Stripe customer behind.",
  auth: USER_CREDENTIAL,
  idempotent: true,
  errors: ["PAYMENT_REQUIRED", "NOT_FOUND", "CONFLICT"],
  body: ZPaymentIntentInput,
  response: ZPaymentIntent,
  handler: ({ caller, body, request }) => createPaymentIntent(caller, body, request.headers.get("idempotency-key")),
});
