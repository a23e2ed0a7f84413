import { defineRawRoute } from "@/server/http/raw-route";
import { receiveWebhook } from "@/server/services/billing/webhooks";

// Stripe's webhook endpoint (and the local stand-in's): the signature covers the exact bytes.
export const dynamic = "force-dynamic";

export const POST = defineRawRoute({
  id: "stripe_webhook",
  rateLimit: "webhook",
  handler: (rawBody, request) => receiveWebhook(rawBody, request.headers.get("stripe-signature")),
});
