import type { Metadata } from "next";
import { BillingPage } from "@/components/billing/billing-page";

export const metadata: Metadata = { title: "Billing · Todo Service" };

export default function Billing() {
  return <BillingPage />;
}
