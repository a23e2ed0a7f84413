// Stripe through the official SDK. With STRIPE_SECRET_KEY it talks to Stripe; without one, the same
// SDK is pointed (its `host`, `port` and `protocol` options) at the local stand-in
// (./standin/server.ts), started in this process, which signs its webhooks with a secret made here.
import { randomBytes } from "node:crypto";
import path from "node:path";
import Stripe from "stripe";
import type { Config } from "../../config.ts";
import { log } from "../../log.ts";
import { runtime } from "../../runtime.ts";
import type { StripeGateway } from "./gateway.ts";
import { StripeStandin } from "./standin/server.ts";

export type { StripeGateway };


export const STANDIN_SECRET_KEY = "sk_test_local_standin";
export const STANDIN_PUBLISHABLE_KEY = "pk_test_local_standin";

/** Retries on a network error or a 5xx/409 use the same idempotency key (the SDK's own). */
const SDK_OPTIONS = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: "todo-service" } } as const;

/**
 * The gateway for this configuration. Without a secret key it starts the stand-in (state in
 * `<dataDir>/stripe-standin.json` unless `memory`), whose webhooks go to `webhookUrl` (set later
 * with `setWebhookUrl` when the port is known).
 */
export async function createStripeGateway(config: Pick<Config, "stripe" | "dataDir">, opts: { webhookUrl?: string; memory?: boolean } = {}): Promise<StripeGateway> {
  if (config.stripe.secretKey) {
    return {
      client: new Stripe(config.stripe.secretKey, SDK_OPTIONS),
      mode: "stripe",
      webhookSecret: config.stripe.webhookSecret!,
      publishableKey: config.stripe.publishableKey ?? null,
      standinUrl: null,
      prices: new Map(),
      close: async () => {},
    };
  }
  if (config.stripe.standinUrl) {
    // A stand-in another process runs (`npm run cluster`): shared state, one webhook endpoint.
    const url = new URL(config.stripe.standinUrl);
    log.info(`Stripe: using the shared Stripe stand-in on ${url.origin} (test mode)`);
    return { ...standinGateway(url, config.stripe.webhookSecret!), close: async () => {} };
  }
  const webhookSecret = `whsec_${randomBytes(24).toString("hex")}`;
  const standin = new StripeStandin({
    secretKey: STANDIN_SECRET_KEY,
    publishableKey: STANDIN_PUBLISHABLE_KEY,
    webhookSecret,
    webhookUrl: opts.webhookUrl,
    stateFile: opts.memory ? undefined : path.join(config.dataDir, "stripe-standin.json"),
  });
  const url = new URL(await standin.listen());
  log.info(`Stripe: no STRIPE_SECRET_KEY, using the local Stripe stand-in on ${url.origin} (test mode)`);
  return { ...standinGateway(url, webhookSecret), standin, close: () => standin.close() };
}

/** The SDK pointed at a stand-in on `url` (this process's or a shared one), in test mode. */
function standinGateway(url: URL, webhookSecret: string): Omit<StripeGateway, "close"> {
  const protocol = url.protocol === "https:" ? "https" : "http";
  return {
    client: new Stripe(STANDIN_SECRET_KEY, { ...SDK_OPTIONS, host: url.hostname, port: Number(url.port || (protocol === "https" ? 443 : 80)), protocol }),
    mode: "standin",
    webhookSecret,
    publishableKey: STANDIN_PUBLISHABLE_KEY,
    standinUrl: url.origin,
    prices: new Map(),
  };
}

let starting: Promise<StripeGateway> | undefined;

/** The process's gateway: the runtime's, else one made now (scripts, tests) without webhooks. */
export async function stripeGateway(): Promise<StripeGateway> {
  const rt = runtime();
  if (rt.stripe) return rt.stripe;
  starting ??= createStripeGateway(rt.config, { memory: true }).then((g) => {
    rt.stripe ??= g;
    starting = undefined;
    return rt.stripe;
  });
  return starting;
}
