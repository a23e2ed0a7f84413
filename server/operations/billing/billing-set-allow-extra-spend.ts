import { ZNull } from "../../../lib/schemas/common.ts";
import { ZAllowExtraSpendInput } from "../../../lib/schemas/billing.ts";
import { setAllowExtraSpend } from "../../services/billing/usage.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_setAllowExtraSpend",
  method: "PATCH",
  path: "/billing/extra-spend",
  tag: "Billing",
  summary: "Opt in or out of extra spend",
  description:
    "On: once a usage window is used up, turns go on against manual credit (never below zero). Off: a new turn is refused with 402 until the window resets.",
  auth: USER_CREDENTIAL,
  body: ZAllowExtraSpendInput,
  response: ZNull,
  handler: async ({ caller, body }) => {
    await setAllowExtraSpend(caller.userId, body.allowExtraSpend);
    return null;
  },
});
