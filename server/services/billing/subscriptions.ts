// Plans as Stripe subscriptions on Prices (found by lookup key, made when missing): create, change
// tier with proration charged now, cancel now or at the period's end. The Subscription row mirrors
// Stripe's object; the request that changes it applies the answer at once and the webhook applies
// it again, each reading Stripe's state back under the user's billing lock (syncSubscription).
import type Stripe from "stripe";
import type { TSubscriptionInfo } from "../../../lib/schemas/billing.ts";
import type { Caller } from "../../auth/caller.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { db } from "../../runtime.ts";
import { ensureAccount, lockBilling, TX_OPTIONS } from "./ledger.ts";
import { ensureCustomer, fromStripeError, recordInvoice } from "./payments.ts";
import { PLANS, planOf, tierOfLookupKey, TIERS, type Tier } from "./plans.ts";
import { stripeGateway } from "./stripe.ts";
import { activeTier } from "./usage.ts";

/** The Stripe Price of a paid tier: found by its lookup key, created (with its product) when missing. */
export async function priceOf(tier: Exclude<Tier, "free">): Promise<string> {
  const gw = await stripeGateway();
  const plan = PLANS[tier];
  const key = plan.lookupKey!;
  const known = gw.prices.get(key);
  if (known) return known;
  const found = await gw.client.prices.list({ lookup_keys: [key], active: true, limit: 1 }).catch(fromStripeError);
  let id = found.data[0]?.id;
  if (!id) {
    const created = await gw.client.prices
      .create({ currency: plan.currency, unit_amount: plan.priceCents, recurring: { interval: "month" }, lookup_key: key, product_data: { name: `Todo Service ${plan.name}` } }, { idempotencyKey: `price-${key}-${plan.priceCents}` })
      .catch(fromStripeError);
    id = created.id;
  }
  gw.prices.set(key, id);
  return id;
}

type SubRow = { tier: string; status: string; cancelAtPeriodEnd: boolean; currentPeriodStart: Date | null; currentPeriodEnd: Date | null; stripeSubscriptionId: string | null };

export function toInfo(row: SubRow | null): TSubscriptionInfo {
  const tier = activeTier(row);
  const plan = planOf(tier);
  const live = row && tier !== "free";
  return {
    tier,
    status: live ? row.status : row?.status === "canceled" ? "canceled" : "active",
    cancelAtPeriodEnd: live ? row.cancelAtPeriodEnd : false,
    currentPeriodStart: live ? (row.currentPeriodStart?.getTime() ?? null) : null,
    currentPeriodEnd: live ? (row.currentPeriodEnd?.getTime() ?? null) : null,
    priceCents: plan.priceCents,
    currency: plan.currency,
    stripeSubscriptionId: live ? row.stripeSubscriptionId : null,
  };
}

export async function getSubscription(caller: Caller): Promise<TSubscriptionInfo> {
  return toInfo(await db().subscription.findUnique({ where: { userId: caller.userId } }));
}

/** The tier a Stripe subscription stands for (by its price's lookup key, else its metadata). */
function tierOf(sub: Stripe.Subscription): Tier {
  const price = sub.items.data[0]?.price;
  const byMeta = (TIERS as readonly string[]).includes(sub.metadata?.tier ?? "") ? (sub.metadata.tier as Tier) : null;
  return tierOfLookupKey(price?.lookup_key) ?? byMeta ?? "free";
}

/**
 * Mirrors Stripe's subscription `subscriptionId` for the user, as Stripe has it now: under the
 * user's billing lock it reads the subscription back from Stripe and writes it, so every write is
 * Stripe's state at a moment after the one before (a request and a webhook racing, or events
 * delivered out of order, cannot put an older state back). A late event of another subscription
 * than the live one stored changes nothing. `at` (seconds) is when the change happened (the
 * event's time, or now). Returns whether it wrote.
 */
export async function syncSubscription(userId: string, subscriptionId: string, at: number): Promise<boolean> {
  return db().$transaction((tx) => syncSubscriptionIn(tx, userId, subscriptionId, at), TX_OPTIONS);
}

const LIVE = new Set(["active", "trialing", "past_due", "incomplete"]);

/** syncSubscription inside the caller's transaction (the webhook's, with its event record). */
export async function syncSubscriptionIn(tx: Prisma.TransactionClient, userId: string, subscriptionId: string, at: number): Promise<boolean> {
  await lockBilling(tx, userId);
  await ensureAccount(tx, userId);
  const current = await tx.subscription.findUnique({ where: { userId } });
  const other = current?.stripeSubscriptionId && current.stripeSubscriptionId !== subscriptionId ? current : null;
  if (other?.lastEventAt && other.lastEventAt.getTime() > at * 1000) return false;
  const { client } = await stripeGateway();
  const sub = await client.subscriptions.retrieve(subscriptionId).catch(fromStripeError);
  // An old subscription (ended) read back while another one is live: its late event.
  if (other && LIVE.has(other.status) && !LIVE.has(sub.status)) return false;
  const item = sub.items.data[0];
  const data = {
    tier: tierOf(sub),
    status: sub.status,
    stripeSubscriptionId: sub.id,
    stripePriceId: item?.price.id ?? null,
    currentPeriodStart: item ? new Date(item.current_period_start * 1000) : null,
    currentPeriodEnd: item ? new Date(item.current_period_end * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    lastEventAt: new Date(Math.max(at * 1000, current?.lastEventAt?.getTime() ?? 0)),
  };
  if (current && !other) {
    await tx.subscription.update({ where: { userId }, data });
  } else {
    // A new subscription: its weekly windows are anchored at its start.
    const anchor = new Date(sub.start_date * 1000);
    await tx.subscription.upsert({ where: { userId }, create: { userId, ...data, windowAnchorAt: anchor }, update: { ...data, windowAnchorAt: anchor } });
  }
  return true;
}

async function recordLatestInvoice(userId: string, sub: Stripe.Subscription): Promise<number> {
  const inv = sub.latest_invoice;
  if (!inv) return 0;
  const { client } = await stripeGateway();
  const full = typeof inv === "string" ? await client.invoices.retrieve(inv).catch(fromStripeError) : inv;
  await recordInvoice(userId, full);
  return full.amount_paid;
}

async function liveSubscription(userId: string) {
  const row = await db().subscription.findUnique({ where: { userId } });
  return row && activeTier(row) !== "free" && row.stripeSubscriptionId ? { ...row, stripeSubscriptionId: row.stripeSubscriptionId } : null;
}

async function paymentMethodFor(userId: string, pmId: string | undefined): Promise<string> {
  if (pmId) {
    if (!(await db().paymentMethod.findFirst({ where: { id: pmId, userId }, select: { id: true } }))) throw notFound("Payment method");
    return pmId;
  }
  const account = await db().billingAccount.findUnique({ where: { userId }, select: { defaultPaymentMethodId: true } });
  if (!account?.defaultPaymentMethodId) throw new ApiError("PAYMENT_REQUIRED", "Add a card before subscribing", { reason: "no_payment_method" });
  return account.defaultPaymentMethodId;
}

/**
 * A member of a team they do not own: the team's pool (its owner's plan) pays for their turns, so
 * a plan of their own would be paid for nothing. Subscribing, changing tier and keeping a plan that
 * ends are 409 (`data.reason: "paid_by_team"`) until they leave the team.
 */
async function refuseIfPaidByTeam(userId: string): Promise<void> {
  const member = await db().teamMember.findUnique({ where: { userId }, select: { role: true, team: { select: { name: true } } } });
  if (member && member.role !== "owner")
    throw new ApiError("CONFLICT", `Your turns are paid by the shared pool of ${member.team.name}, so you need no plan of your own while you are in it`, { reason: "paid_by_team" });
}

/** Subscribes to a paid tier, charging the first month now (a decline is 402 and changes nothing). */
export async function createSubscription(caller: Caller, input: { tier: "pro" | "max"; paymentMethodId?: string }, idempotencyKey: string | null) {
  if (await liveSubscription(caller.userId)) throw new ApiError("CONFLICT", "There is already a subscription: change its tier instead");
  await refuseIfPaidByTeam(caller.userId);
  const pm = await paymentMethodFor(caller.userId, input.paymentMethodId);
  const customer = await ensureCustomer(caller.userId);
  const price = await priceOf(input.tier);
  const { client } = await stripeGateway();
  let sub: Stripe.Subscription;
  try {
    sub = await client.subscriptions.create(
      { customer, items: [{ price }], default_payment_method: pm, payment_behavior: "error_if_incomplete", metadata: { userId: caller.userId, tier: input.tier } },
      { idempotencyKey: `subscribe-${caller.userId}-${idempotencyKey ?? `${input.tier}-${Date.now()}`}` },
    );
  } catch (e) {
    fromStripeError(e);
  }
  await syncSubscription(caller.userId, sub.id, Math.floor(Date.now() / 1000));
  const charged = await recordLatestInvoice(caller.userId, sub);
  return { subscription: await getSubscription(caller), chargedNowCents: charged };
}

/** What moving from the current plan to `tier` charges now: the prorated difference for the rest of the period. */
export function changeCost(row: SubRow | null, tier: Tier, at = Date.now()): number {
  const current = activeTier(row);
  if (tier === current || tier === "free") return 0;
  const next = PLANS[tier].priceCents;
  if (current === "free" || !row?.currentPeriodStart || !row.currentPeriodEnd) return next;
  const start = row.currentPeriodStart.getTime();
  const end = row.currentPeriodEnd.getTime();
  const left = Math.max(0, Math.min(1, (end - at) / Math.max(1, end - start)));
  return Math.max(0, Math.round(next * left) - Math.round(PLANS[current].priceCents * left));
}

/** Upgrade or downgrade: prorated now (an upgrade charges the difference; a downgrade leaves credit at Stripe for the next invoice). */
export async function updateSubscription(caller: Caller, input: { tier: "pro" | "max" }, idempotencyKey: string | null) {
  const row = await liveSubscription(caller.userId);
  if (!row) throw new ApiError("CONFLICT", "There is no subscription to change: subscribe first");
  if (row.tier === input.tier && !row.cancelAtPeriodEnd) throw new ApiError("CONFLICT", `The subscription is already ${PLANS[input.tier].name}`);
  await refuseIfPaidByTeam(caller.userId);
  const price = await priceOf(input.tier);
  const { client } = await stripeGateway();
  let sub: Stripe.Subscription;
  try {
    const current = await client.subscriptions.retrieve(row.stripeSubscriptionId);
    const item = current.items.data[0]!;
    sub = await client.subscriptions.update(
      row.stripeSubscriptionId,
      { items: [{ id: item.id, price }], proration_behavior: "always_invoice", payment_behavior: "error_if_incomplete", cancel_at_period_end: false, metadata: { tier: input.tier } },
      { idempotencyKey: `change-${caller.userId}-${idempotencyKey ?? `${input.tier}-${Date.now()}`}` },
    );
  } catch (e) {
    fromStripeError(e);
  }
  await syncSubscription(caller.userId, sub.id, Math.floor(Date.now() / 1000));
  const charged = row.tier === input.tier ? 0 : await recordLatestInvoice(caller.userId, sub);
  return { subscription: await getSubscription(caller), chargedNowCents: charged };
}

/** Ends a live subscription at Stripe (at the period's end, or now) and mirrors Stripe's answer. */
async function cancelAtStripe(userId: string, subscriptionId: string, atPeriodEnd: boolean): Promise<void> {
  const { client } = await stripeGateway();
  let sub: Stripe.Subscription;
  try {
    sub = atPeriodEnd ? await client.subscriptions.update(subscriptionId, { cancel_at_period_end: true }) : await client.subscriptions.cancel(subscriptionId);
  } catch (e) {
    fromStripeError(e);
  }
  await syncSubscription(userId, sub.id, Math.floor(Date.now() / 1000));
}

export async function cancelSubscription(caller: Caller, input: { atPeriodEnd: boolean }) {
  const row = await liveSubscription(caller.userId);
  if (!row) throw new ApiError("CONFLICT", "There is no subscription to cancel");
  await cancelAtStripe(caller.userId, row.stripeSubscriptionId, input.atPeriodEnd);
  return { subscription: await getSubscription(caller), chargedNowCents: 0 };
}

/**
 * A user who is now a member of a team they do not own (joined it, or handed it over): the team's
 * pool pays for their turns from now on, so their own paid plan is set to end at its period's end
 * (nothing refunded, no renewal), the way they would cancel it themselves. Returns the plan as it
 * is now, or null when they have none. Does nothing to the plan of a user who is no longer such a
 * member when it runs (they left again, or own the team now).
 */
export async function endPlanPaidByTeam(userId: string): Promise<TSubscriptionInfo | null> {
  const member = await db().teamMember.findUnique({ where: { userId }, select: { role: true } });
  const row = await liveSubscription(userId);
  if (!row) return null;
  if (member && member.role !== "owner" && !row.cancelAtPeriodEnd) await cancelAtStripe(userId, row.stripeSubscriptionId, true);
  return toInfo(await db().subscription.findUnique({ where: { userId } }));
}

export async function listPlans(caller: Caller) {
  const [row, gw] = await Promise.all([db().subscription.findUnique({ where: { userId: caller.userId } }), stripeGateway()]);
  const current = activeTier(row);
  return {
    currentTier: current,
    testMode: gw.mode === "standin",
    publishableKey: gw.mode === "standin" ? null : gw.publishableKey,
    plans: TIERS.map((t) => {
      const p = PLANS[t];
      return {
        tier: t,
        name: p.name,
        priceCents: p.priceCents,
        currency: p.currency,
        interval: "month" as const,
        monthlyAllowanceCents: p.monthlyAllowanceCents,
        sessionAllowanceCents: p.sessionAllowanceCents,
        sessionWindowHours: 5,
        weeklyAllowanceCents: p.weeklyAllowanceCents,
        current: t === current,
        changeNowCents: changeCost(row, t),
        cloudDevice: p.cloudDevice ? { ...p.cloudDevice } : null,
      };
    }),
  };
}
