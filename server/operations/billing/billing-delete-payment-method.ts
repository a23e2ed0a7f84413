import { ZNull } from "../../../lib/schemas/common.ts";
import { ZPaymentMethodIdInput, ZPaymentMethodIdParams } from "../../../lib/schemas/billing.ts";
import { deletePaymentMethod } from "../../services/billing/payments.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_deletePaymentMethod",
  method: "DELETE",
  path: "/billing/payment-methods/{paymentMethodId}",
  tag: "Billing",
  summary: "Remove a saved card",
  description:
    "Detaches the card from the caller's Stripe customer. When it was the default, the newest remaining card becomes the default. The body repeats the path's id. Another user's card is 404.",
  auth: USER_CREDENTIAL,
  errors: ["NOT_FOUND"],
  params: ZPaymentMethodIdParams,
  body: ZPaymentMethodIdInput,
  response: ZNull,
  handler: ({ caller, params }) => deletePaymentMethod(caller, params.paymentMethodId),
});
