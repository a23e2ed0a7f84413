import { ZUserBalance } from "../../../lib/schemas/billing.ts";
import { balanceOf } from "../../services/billing/ledger.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_getBalance",
  method: "GET",
  path: "/billing/balance",
  tag: "Billing",
  summary: "The caller's credit balance",
  description:
    "Manual credit in integer cents with its ISO currency: the sum of every ledger transaction. Also whether extra spend is on.",
  auth: USER_CREDENTIAL,
  response: ZUserBalance,
  handler: ({ caller }) => balanceOf(caller.userId),
});
