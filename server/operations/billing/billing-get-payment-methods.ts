import { ZPaymentMethodList } from "../../../lib/schemas/billing.ts";
import { listPaymentMethods } from "../../services/billing/payments.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_getPaymentMethods",
  method: "GET",
  path: "/billing/payment-methods",
  tag: "Billing",
  summary: "The caller's saved cards",
  description:
    "Oldest first, each with brand, last four digits, expiry and whether it is the default.",
  auth: USER_CREDENTIAL,
  response: ZPaymentMethodList,
  handler: ({ caller }) => listPaymentMethods(caller),
});
