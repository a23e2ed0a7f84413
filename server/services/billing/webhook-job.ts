// Stripe webhooks, the job half (the route's half is ./webhooks.ts): the raw-body route (app/webhooks/stripe/route.ts) checks the signature over the
// exact bytes with the SDK (`constructEvent`, 300 s tolerance) and queues a job with the event's id
// only (no payload in job storage); the job reads the event back from Stripe and applies it. Each
// event id is applied once: its StripeEvent row is written in the same transaction as its effect.
// Subscription events apply the subscription as Stripe has it now, read back under the user's
// billing lock (syncSubscriptionIn), so deliveries out of order or racing a request change nothing.
import type Stripe from "stripe";
import { z } from "zod";
import { defineJob } from "../../jobs/define.ts";
import { log } from "../../log.ts";
import { db } from "../../runtime.ts";
import { TX_OPTIONS } from "./ledger.ts";
import { creditPaymentIntentIn, recordInvoice, recordPaymentMethod, userOfCustomer } from "./payments.ts";
import { stripeGateway } from "./stripe.ts";
import { syncSubscriptionIn } from "./subscriptions.ts";

/** Seconds a signature stays valid (Stripe's default tolerance). */
export const WEBHOOK_TOLERANCE_S = 300;

/** Test hook: the next apply throws after reading the event (a crash between receipt and apply). */
export const webhookFaults = { failNextApply: 0 };

const customerOf = (o: { customer?: string | { id: string } | null }) => (typeof o.customer === "string" ? o.customer : (o.customer?.id ?? null));

/** Applies one event (read back from Stripe) once; returns what it did, for logs and tests. */
export async function applyEvent(eventId: string): Promise<"applied" | "duplicate" | "ignored" | "stale"> {
  if (await db().stripeEvent.findUnique({ where: { id: eventId }, select: { id: true } })) return "duplicate";
  const { client } = await stripeGateway();
  const event = await client.events.retrieve(eventId);
  if (webhookFaults.failNextApply > 0) {
    webhookFaults.failNextApply--;
    throw new Error("injected failure between receipt and apply");
  }
  const at = event.created;
  // Who the event is for (outside the transaction).
  let subId: string | null = null;
  let pm: Stripe.PaymentMethod | null = null;
  let userId: string | null = null;
  const object = event.data.object as unknown as Record<string, unknown>;
  if (event.type.startsWith("customer.subscription.")) {
    const s = event.data.object as Stripe.Subscription;
    userId = await userOfCustomer(customerOf(s));
    subId = s.id;
  } else if (event.type === "payment_method.attached") {
    pm = event.data.object as Stripe.PaymentMethod;
    userId = await userOfCustomer(customerOf(pm));
  } else if (event.type === "invoice.paid" || event.type === "invoice.payment_failed") {
    userId = await userOfCustomer(customerOf(event.data.object as Stripe.Invoice));
  }
  let result: "applied" | "ignored" | "stale" = "ignored";
  const fresh = await db().$transaction(async (tx) => {
    // INSERT … ON CONFLICT DO NOTHING in raw SQL: Prisma's createMany (skipDuplicates) compiles a new query plan on every call.
    const first = await tx.$executeRaw`INSERT INTO "StripeEvent" ("id", "type", "appliedAt") VALUES (${event.id}, ${event.type}, ${new Date()}::timestamp(3)) ON CONFLICT DO NOTHING`;
    if (first === 0) return false;
    if (event.type === "payment_intent.succeeded") {
      result = (await creditPaymentIntentIn(tx, event.data.object as Stripe.PaymentIntent)) === null ? "ignored" : "applied";
    } else if (subId && userId) {
      result = (await syncSubscriptionIn(tx, userId, subId, at)) ? "applied" : "stale";
    } else if (event.type === "payment_method.detached") {
      await tx.paymentMethod.deleteMany({ where: { id: String(object.id) } });
      result = "applied";
    }
    return true;
  }, TX_OPTIONS);
  if (!fresh) return "duplicate";
  // Idempotent by their own keys (the Stripe id), so outside the event's transaction.
  // A failed renewal's invoice is listed too (open), so the billing page can say what failed.
  if ((event.type === "invoice.paid" || event.type === "invoice.payment_failed") && userId) {
    await recordInvoice(userId, event.data.object as Stripe.Invoice);
    result = "applied";
  }
  if (pm && userId && !(await db().paymentMethod.findUnique({ where: { id: pm.id }, select: { id: true } }))) {
    await recordPaymentMethod(userId, pm);
    result = "applied";
  }
  log.info("stripe event", { id: event.id, type: event.type, result });
  return result;
}

export const stripeEventJob = defineJob(
  "stripe.event",
  z.object({ eventId: z.string().min(1).max(255) }),
  async ({ eventId }) => {
    await applyEvent(eventId);
  },
  { attempts: 8, backoffMs: 1_000 },
);

