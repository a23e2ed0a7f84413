import { ZPageQuery, ZInvoicesPage } from "../../../lib/schemas/billing.ts";
import { listInvoices } from "../../services/billing/payments.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "billing_getInvoices",
  method: "GET",
  path: "/billing/invoices",
  tag: "Billing",
  summary: "The caller's invoices, newest first",
  description:
    "Subscription invoices as Stripe reported them (`invoice.paid`). Paged like transactions: `limit` and `cursor`.",
  auth: USER_CREDENTIAL,
  query: ZPageQuery,
  response: ZInvoicesPage,
  handler: ({ caller, query }) => listInvoices(caller, query),
});
