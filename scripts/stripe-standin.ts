// The local Stripe stand-in as its own process, for several server processes sharing one (see
// `npm run cluster` and docs/deploy.md). Environment:
//   PORT                   where it listens (127.0.0.1)
//   STRIPE_WEBHOOK_SECRET  whsec_…: the servers verify its webhooks with the same secret
//   STRIPE_WEBHOOK_URL     where its events are POSTed (the balancer's /webhooks/stripe)
//   STRIPE_STANDIN_STATE   optional JSON file that keeps its state across restarts
// The servers get STRIPE_STANDIN_URL=http://127.0.0.1:$PORT and the same STRIPE_WEBHOOK_SECRET.
import { STANDIN_PUBLISHABLE_KEY, STANDIN_SECRET_KEY } from "../server/services/billing/stripe.ts";
import { StripeStandin } from "../server/services/billing/standin/server.ts";

const webhookSecret = process.env.STRIPE_WEBHOOK_SECRET;
if (!webhookSecret?.startsWith("whsec_")) {
  console.error("STRIPE_WEBHOOK_SECRET must be set (whsec_…)");
  process.exit(1);
}
const standin = new StripeStandin({
  secretKey: STANDIN_SECRET_KEY,
  publishableKey: STANDIN_PUBLISHABLE_KEY,
  webhookSecret,
  webhookUrl: process.env.STRIPE_WEBHOOK_URL,
  stateFile: process.env.STRIPE_STANDIN_STATE || undefined,
  port: Number(process.env.PORT ?? 0),
});
const url = await standin.listen();
console.log(`Stripe stand-in ready on ${url}`);
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void standin.close().finally(() => process.exit(0)));
