import { ZNull } from "../../../lib/schemas/common.ts";
import { ZPaymentMethodIdInput } from "../../../lib/schemas/billing.ts";
import { setDefaultPaymentMethod } from "../../services/billing/payments.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_setDefaultPaymentMethod",
  method: "POST",
  path: "/billing/set-default-payment-method",
  tag: "Billing",
  summary: "Make a saved card the default",
  description:
    "The default card pays subscriptions. Another user's card, or an unknown id, is 404.",
  auth: USER_CREDENTIAL,
  idempotent: false,
  errors: ["NOT_FOUND"],
  body: ZPaymentMethodIdInput,
  response: ZNull,
  handler: ({ caller, body }) => setDefaultPaymentMethod(caller, body.paymentMethodId),
});
