// The shape of the process's Stripe connection (made by ./stripe.ts, held by the Runtime).
import type Stripe from "stripe";
import type { StripeStandin } from "./standin/server.ts";

export type StripeGateway = {
  client: Stripe;
  mode: "stripe" | "standin";
  webhookSecret: string;
  publishableKey: string | null;
  /** The stand-in's base URL (test mode only), for the browser's test-card form. */
  standinUrl: string | null;
  standin?: StripeStandin;
  /** Price ids by plan lookup key, filled on first use. */
  prices: Map<string, string>;
  close(): Promise<void>;
};
