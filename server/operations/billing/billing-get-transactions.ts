import { ZPageQuery, ZTransactionPage } from "../../../lib/schemas/billing.ts";
import { listTransactions } from "../../services/billing/payments.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_getTransactions",
  method: "GET",
  path: "/billing/transactions",
  tag: "Billing",
  summary: "The caller's ledger transactions, newest first",
  description:
    "Every change of the balance (credit purchase, usage charge, refund, grant), newest first. Paged: `limit` (default 50, at most 200) and `cursor` (the previous page's `nextCursor`).",
  auth: USER_CREDENTIAL,
  query: ZPageQuery,
  response: ZTransactionPage,
  handler: ({ caller, query }) => listTransactions(caller, query),
});
