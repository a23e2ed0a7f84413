import type { AnyOperation } from "../../http/define.ts";
import billingGetBalance from "./billing-get-balance.ts";
import billingGetTransactions from "./billing-get-transactions.ts";
import billingGetInvoices from "./billing-get-invoices.ts";
import billingCreatePaymentIntent from "./billing-create-payment-intent.ts";
import billingSetupPaymentMethod from "./billing-setup-payment-method.ts";
import billingGetPaymentMethods from "./billing-get-payment-methods.ts";
import billingSetDefaultPaymentMethod from "./billing-set-default-payment-method.ts";
import billingDeletePaymentMethod from "./billing-delete-payment-method.ts";
import billingGetSubscription from "./billing-get-subscription.ts";
import billingCreateSubscription from "./billing-create-subscription.ts";
import billingCancelSubscription from "./billing-cancel-subscription.ts";
import billingUpdateSubscription from "./billing-update-subscription.ts";
import billingGetSubscriptionPlans from "./billing-get-subscription-plans.ts";
import billingGetUsageStatus from "./billing-get-usage-status.ts";
import billingSetAllowExtraSpend from "./billing-set-allow-extra-spend.ts";
import usageGetUsage from "./usage-get-usage.ts";

// Billing (without teams) and usage_getUsage: issue 12, docs/api.md "Billing".
export const billingOperations = [
  billingGetBalance,
  billingGetTransactions,
  billingGetInvoices,
  billingCreatePaymentIntent,
  billingSetupPaymentMethod,
  billingGetPaymentMethods,
  billingSetDefaultPaymentMethod,
  billingDeletePaymentMethod,
  billingGetSubscription,
  billingCreateSubscription,
  billingCancelSubscription,
  billingUpdateSubscription,
  billingGetSubscriptionPlans,
  billingGetUsageStatus,
  billingSetAllowExtraSpend,
  usageGetUsage,
] satisfies AnyOperation[];
