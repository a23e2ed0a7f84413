import { ZSetupPaymentMethodInput, ZSetupIntent } from "../../../lib/schemas/billing.ts";
import { setupPaymentMethod } from "../../services/billing/payments.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_setupPaymentMethod",
  method: "POST",
  path: "/billing/setup-payment-method",
  tag: "Billing",
  summary: "Save a card: a Stripe SetupIntent",
  description:
    "Without a body field: a SetupIntent whose `clientSecret` Stripe.js confirms (`publishableKey` given). With `paymentMethodId` (a card from Stripe.js / the test-card form, or a Stripe test token such as `pm_card_visa`) it is confirmed now and the card saved (`paymentMethod`); the first card becomes the default. A declined card is 402 with Stripe's reason. Another user's card, or an unknown one, is 404, checked before anything is made at Stripe: a refused request leaves no Stripe customer behind. `testMode` is true when the local Stripe stand-in serves payments.",
  auth: USER_CREDENTIAL,
  errors: ["PAYMENT_REQUIRED", "NOT_FOUND"],
  body: ZSetupPaymentMethodInput,
  response: ZSetupIntent,
  handler: ({ caller, body, request }) => setupPaymentMethod(caller, body, request.headers.get("idempotency-key")),
});
