// Stripe webhooks, the route's half: see ./webhook-job.ts for how an event is applied.
import type Stripe from "stripe";
import { ApiError } from "../../http/errors.ts";
import { enqueue } from "../../jobs/enqueue.ts";
import { db } from "../../runtime.ts";
import { stripeGateway } from "./stripe.ts";
import { stripeEventJob, WEBHOOK_TOLERANCE_S } from "./webhook-job.ts";

/**
 * The webhook route's handler: 400 (and nothing changes) for a missing or bad signature, else the
 * event is queued (once per event id while it waits) and Stripe gets 200 at once.
 */
export async function receiveWebhook(rawBody: string, signature: string | null): Promise<{ received: true }> {
  const gw = await stripeGateway();
  let event: Stripe.Event;
  try {
    event = gw.client.webhooks.constructEvent(rawBody, signature ?? "", gw.webhookSecret, WEBHOOK_TOLERANCE_S);
  } catch (e) {
    throw new ApiError("BAD_REQUEST", `Webhook signature check failed: ${(e as Error).message.split("\n")[0]}`);
  }
  if (await db().stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return { received: true };
  await enqueue(stripeEventJob, { eventId: event.id }, { key: event.id });
  return { received: true };
}
