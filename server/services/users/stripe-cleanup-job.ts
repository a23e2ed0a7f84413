import { z } from "zod";
import { defineJob } from "../../jobs/define.ts";
import { stripeGateway } from "../billing/stripe.ts";

/**
 * Deletes the Stripe customer of a deleted account through the SDK: Stripe cancels its
 * subscriptions and detaches its cards with it. The job's data is the customer id only (the
 * account is gone); a customer Stripe no longer knows is done.
 */
export const stripeCustomerCleanupJob = defineJob(
  "account.stripe-cleanup",
  z.object({ customerId: z.string().min(1).max(255) }),
  async ({ customerId }, ctx) => {
    await ctx.once("delete-customer", async (idempotencyKey) => {
      const { client } = await stripeGateway();
      try {
        await client.customers.del(customerId, {}, { idempotencyKey });
        return { deleted: customerId };
      } catch (err) {
        const e = err as { type?: string; code?: string; statusCode?: number };
        if (e.statusCode === 404 || e.code === "resource_missing") return { deleted: customerId, alreadyGone: true };
        throw err;
      }
    });
  },
  { attempts: 10, backoffMs: 10_000 },
);
