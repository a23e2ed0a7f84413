import { getBridge } from "@/server/http/bridge";
import { defineRawRoute, refuseMethod } from "@/server/http/raw-route";

// Stripe's webhook endpoint (and the local stand-in's): the signature covers the exact bytes. The
// check and the job run in the server's module graph (server/services/billing/webhooks.ts), reached
// through the bridge like every operation (Next bundles this file apart from the server's modules).
export const dynamic = "force-dynamic";

export const POST = defineRawRoute({
  id: "stripe_webhook",
  rateLimit: "webhook",
  handler: (rawBody, request) => {
    const handle = getBridge()?.rawRoutes?.stripe_webhook;
    if (!handle) throw new Error("stripe_webhook: the server was not started through server/main.ts");
    return handle(rawBody, request);
  },
});

// Any other method: 405 in the error shape with `Allow: POST` (Next's own 405 has an empty body).
const refuse = refuseMethod("/webhooks/stripe", ["POST"]);
export { refuse as GET, refuse as PUT, refuse as PATCH, refuse as DELETE };
