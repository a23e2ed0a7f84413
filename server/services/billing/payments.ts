// Credit, cards and invoices through Stripe (server/services/billing/stripe.ts): the customer of a
// user, PaymentIntents that add credit to the ledger, SetupIntents and saved PaymentMethods.
import Stripe from "stripe";
import type { TPaymentIntent, TPaymentMethod } from "../../../lib/schemas/billing.ts";
import type { Caller } from "../../auth/caller.ts";
import { ApiError, badRequest, notFound } from "../../http/errors.ts";
import { log } from "../../log.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { db, runtime } from "../../runtime.ts";
import { ensureAccount, lockBilling, post, TX_OPTIONS } from "./ledger.ts";
import { stripeGateway } from "./stripe.ts";

/** A card error from Stripe as our 402 (with Stripe's own reason); other Stripe errors as they are meant. */
export function fromStripeError(e: unknown): never {
  if (e instanceof Stripe.errors.StripeCardError) {
    throw new ApiError("PAYMENT_REQUIRED", e.message || "Your card was declined.", { code: e.code ?? null, declineCode: e.decline_code ?? null });
  }
  if (e instanceof Stripe.errors.StripeInvalidRequestError) {
    if (e.code === "resource_missing") throw notFound("Payment method");
    // Stripe names its own parameter (`payment_method`), not ours: the issue points at the body.
    throw badRequest(e.message, [{ path: "body", message: e.param ? `${e.param}: ${e.message}` : e.message, code: "custom" }]);
  }
  if (e instanceof Stripe.errors.StripeIdempotencyError) throw new ApiError("CONFLICT", "This Idempotency-Key was used with different parameters");
  if (e instanceof Stripe.errors.StripeError) {
    log.error("stripe call failed", { type: e.type, code: e.code, status: e.statusCode, message: e.message });
    throw new Error("The payment provider failed");
  }
  throw e;
}

/**
 * The user's Stripe customer, made on first use (the idempotency key makes two racing calls one
 * customer). `known`: what the caller already read with knownCustomer, to spare a second read.
 */
export async function ensureCustomer(userId: string, known?: string | null): Promise<string> {
  if (known === undefined) known = await knownCustomer(userId);
  if (known) return known;
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true } });
  const { client } = await stripeGateway();
  // STRIPE_TEST_CLOCKS (test mode): the customer lives on a clock of its own, which tests move forward.
  const clock = runtime().config.stripe.testClocks
    ? await client.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000), name: `customer-of-${userId}` }, { idempotencyKey: `clock-of-${userId}` }).catch(fromStripeError)
    : null;
  const customer = await client.customers.create({ email: user.email, ...(user.name ? { name: user.name } : {}), metadata: { userId }, ...(clock ? { test_clock: clock.id } : {}) }, { idempotencyKey: `customer-of-${userId}` }).catch(fromStripeError);
  return db().$transaction(async (tx) => {
    await lockBilling(tx, userId);
    const a = await ensureAccount(tx, userId);
    if (a.stripeCustomerId) return a.stripeCustomerId;
    await tx.billingAccount.update({ where: { userId }, data: { stripeCustomerId: customer.id } });
    return customer.id;
  }, TX_OPTIONS);
}

/** The user's Stripe customer if one was made already (never makes one). */
async function knownCustomer(userId: string): Promise<string | null> {
  return (await db().billingAccount.findUnique({ where: { userId }, select: { stripeCustomerId: true } }))?.stripeCustomerId ?? null;
}

/** Credits a succeeded PaymentIntent once (its id is the ledger reference); the webhook and the request may both call it. */
export async function creditPaymentIntent(pi: CreditablePayment): Promise<number | null> {
  return db().$transaction((tx) => creditPaymentIntentIn(tx, pi), TX_OPTIONS);
}

type CreditablePayment = Pick<Stripe.PaymentIntent, "id" | "status" | "amount_received" | "currency" | "metadata" | "customer">;

/** creditPaymentIntent inside the caller's transaction (the webhook's, with its event record). */
export async function creditPaymentIntentIn(tx: Prisma.TransactionClient, pi: CreditablePayment): Promise<number | null> {
  if (pi.status !== "succeeded" || pi.metadata?.purpose !== "credit") return null;
  const customer = typeof pi.customer === "string" ? pi.customer : (pi.customer?.id ?? null);
  const userId = customer ? ((await tx.billingAccount.findUnique({ where: { stripeCustomerId: customer }, select: { userId: true } }))?.userId ?? null) : null;
  if (!userId) return null;
  const posted = await post(tx, userId, { amountCents: pi.amount_received, kind: "credit_purchase", description: `Credit added (${(pi.amount_received / 100).toFixed(2)} ${pi.currency.toUpperCase()})`, reference: pi.id });
  return posted.balanceAfterCents;
}

export async function userOfCustomer(customerId: string | null): Promise<string | null> {
  if (!customerId) return null;
  return (await db().billingAccount.findUnique({ where: { stripeCustomerId: customerId }, select: { userId: true } }))?.userId ?? null;
}

/**
 * A payment method the caller may pay with or save: one of their saved cards, or one fresh from
 * Stripe.js / the test-card form (no customer yet). Another customer's card is 404, like an unknown
 * id. It runs before the caller's Stripe customer is made (`customerId` null until then), so a
 * refused card leaves nothing behind at Stripe.
 */
async function usablePaymentMethod(userId: string, customerId: string | null, pmId: string): Promise<string> {
  if (await db().paymentMethod.findFirst({ where: { id: pmId, userId }, select: { id: true } })) return pmId;
  if (await db().paymentMethod.findUnique({ where: { id: pmId }, select: { id: true } })) throw notFound("Payment method");
  const { client } = await stripeGateway();
  const pm = await client.paymentMethods.retrieve(pmId).catch(fromStripeError);
  const owner = typeof pm.customer === "string" ? pm.customer : (pm.customer?.id ?? null);
  if (owner && owner !== customerId) throw notFound("Payment method");
  return pm.id;
}

/** The authentication page of a `use_stripe_sdk` 3-D Secure action (Stripe.js opens it; the test-mode form goes there). */
function stripeJsUrl(sdk: unknown): string | null {
  const url = sdk && typeof sdk === "object" ? (sdk as Record<string, unknown>).stripe_js : null;
  return typeof url === "string" && /^https?:\/\//.test(url) ? url : null;
}

function toIntent(pi: Stripe.PaymentIntent, balanceCents: number | null): TPaymentIntent {
  const err = pi.last_payment_error;
  const next = pi.next_action;
  return {
    id: pi.id,
    status: pi.status as TPaymentIntent["status"],
    amountCents: pi.amount,
    currency: pi.currency,
    clientSecret: pi.status === "succeeded" ? null : pi.client_secret,
    nextAction: next ? { type: next.type, url: next.redirect_to_url?.url ?? stripeJsUrl(next.use_stripe_sdk) } : null,
    lastError: err ? { code: err.code ?? null, declineCode: err.decline_code ?? null, message: err.message ?? "The payment failed" } : null,
    balanceCents,
  };
}

/**
 * Adds credit: a PaymentIntent for `amountCents`. With a payment method it is confirmed now (a
 * decline is 402 with Stripe's reason; success credits the ledger before answering); without one the
 * answer's `clientSecret` is confirmed in the browser and the webhook credits the ledger. The
 * request's Idempotency-Key is also Stripe's, so a retried request never makes a second payment.
 */
export async function createPaymentIntent(caller: Caller, input: { amountCents: number; currency: string; paymentMethodId?: string }, idempotencyKey: string | null): Promise<TPaymentIntent> {
  // The checks first: a refused request makes no Stripe customer.
  const known = await knownCustomer(caller.userId);
  const pm = input.paymentMethodId ? await usablePaymentMethod(caller.userId, known, input.paymentMethodId) : undefined;
  const customer = await ensureCustomer(caller.userId, known);
  const { client } = await stripeGateway();
  let pi: Stripe.PaymentIntent;
  try {
    pi = await client.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: input.currency,
        customer,
        allowed_payment_method_types: ["card"],
        description: "Todo Service credit",
        metadata: { userId: caller.userId, purpose: "credit" },
        ...(pm ? { payment_method: pm, confirm: true } : {}),
      },
      idempotencyKey ? { idempotencyKey: `credit-${caller.userId}-${idempotencyKey}` } : {},
    );
  } catch (e) {
    fromStripeError(e);
  }
  const balance = await creditPaymentIntent(pi);
  return toIntent(pi, balance);
}

function toMethod(row: { id: string; brand: string; last4: string; expMonth: number; expYear: number; createdAt: Date }, defaultId: string | null): TPaymentMethod {
  return { id: row.id, brand: row.brand, last4: row.last4, expMonth: row.expMonth, expYear: row.expYear, isDefault: row.id === defaultId, createdAt: row.createdAt.getTime() };
}

/** Records a card attached to the user's customer (from a SetupIntent or the webhook); the first card becomes the default. */
export async function recordPaymentMethod(userId: string, pm: Stripe.PaymentMethod): Promise<TPaymentMethod> {
  const card = pm.card;
  const data = { brand: card?.brand ?? pm.type, last4: card?.last4 ?? "", expMonth: card?.exp_month ?? 0, expYear: card?.exp_year ?? 0 };
  const { row, makeDefault } = await db().$transaction(async (tx) => {
    await lockBilling(tx, userId);
    const account = await ensureAccount(tx, userId);
    const row = await tx.paymentMethod.upsert({ where: { id: pm.id }, create: { id: pm.id, userId, ...data }, update: data });
    const makeDefault = !account.defaultPaymentMethodId;
    if (makeDefault) await tx.billingAccount.update({ where: { userId }, data: { defaultPaymentMethodId: pm.id } });
    return { row, makeDefault };
  }, TX_OPTIONS);
  if (makeDefault) {
    const customer = typeof pm.customer === "string" ? pm.customer : pm.customer?.id;
    if (customer) {
      const { client } = await stripeGateway();
      await client.customers.update(customer, { invoice_settings: { default_payment_method: pm.id } }).catch(fromStripeError);
    }
  }
  return toMethod(row, makeDefault ? pm.id : ((await db().billingAccount.findUnique({ where: { userId } }))?.defaultPaymentMethodId ?? null));
}

/**
 * A SetupIntent for saving a card. With a payment method (a card from Stripe.js / the test-card
 * form, or a Stripe test token) it is confirmed now and the card saved; a decline is 402.
 */
export async function setupPaymentMethod(caller: Caller, input: { paymentMethodId?: string }, idempotencyKey: string | null) {
  // Another user's card, or an unknown one, is 404, as for paying with it (usablePaymentMethod), not
  // Stripe's "already attached to a customer", which would tell the caller that the card exists;
  // checked before the customer is made, so a refused request leaves no customer behind.
  const known = await knownCustomer(caller.userId);
  if (input.paymentMethodId) await usablePaymentMethod(caller.userId, known, input.paymentMethodId);
  const customer = await ensureCustomer(caller.userId, known);
  const gw = await stripeGateway();
  let si: Stripe.SetupIntent;
  try {
    si = await gw.client.setupIntents.create(
      { customer, usage: "off_session", allowed_payment_method_types: ["card"], metadata: { userId: caller.userId }, ...(input.paymentMethodId ? { payment_method: input.paymentMethodId, confirm: true } : {}) },
      idempotencyKey ? { idempotencyKey: `setup-${caller.userId}-${idempotencyKey}` } : {},
    );
  } catch (e) {
    fromStripeError(e);
  }
  let method: TPaymentMethod | null = null;
  if (si.status === "succeeded" && si.payment_method) {
    const pm = typeof si.payment_method === "string" ? await gw.client.paymentMethods.retrieve(si.payment_method).catch(fromStripeError) : si.payment_method;
    method = await recordPaymentMethod(caller.userId, pm);
  }
  return {
    id: si.id,
    status: si.status,
    clientSecret: si.status === "succeeded" ? null : si.client_secret,
    paymentMethod: method,
    publishableKey: gw.publishableKey,
    testMode: gw.mode === "standin",
    standinUrl: gw.standinUrl,
  };
}

export async function listPaymentMethods(caller: Caller) {
  const [rows, account] = await Promise.all([
    db().paymentMethod.findMany({ where: { userId: caller.userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db().billingAccount.findUnique({ where: { userId: caller.userId }, select: { defaultPaymentMethodId: true } }),
  ]);
  const def = account?.defaultPaymentMethodId ?? null;
  return { items: rows.map((r) => toMethod(r, def)), defaultPaymentMethodId: def };
}

async function ownMethodOrThrow(userId: string, pmId: string) {
  const row = await db().paymentMethod.findFirst({ where: { id: pmId, userId } });
  if (!row) throw notFound("Payment method");
  return row;
}

/**
 * Makes `pmId` the card Stripe charges: the customer's default, and the live subscription's (a
 * subscription's own default comes first at Stripe, so renewals would otherwise stay on the old card).
 */
async function chargeCardAtStripe(userId: string, customer: string, pmId: string): Promise<void> {
  const { client } = await stripeGateway();
  await client.customers.update(customer, { invoice_settings: { default_payment_method: pmId } }).catch(fromStripeError);
  const sub = await db().subscription.findUnique({ where: { userId }, select: { stripeSubscriptionId: true, status: true } });
  if (sub?.stripeSubscriptionId && sub.status !== "canceled") await client.subscriptions.update(sub.stripeSubscriptionId, { default_payment_method: pmId }).catch(fromStripeError);
}

export async function setDefaultPaymentMethod(caller: Caller, pmId: string): Promise<null> {
  await ownMethodOrThrow(caller.userId, pmId);
  const customer = await ensureCustomer(caller.userId);
  await chargeCardAtStripe(caller.userId, customer, pmId);
  await db().billingAccount.update({ where: { userId: caller.userId }, data: { defaultPaymentMethodId: pmId } });
  return null;
}

export async function deletePaymentMethod(caller: Caller, pmId: string): Promise<null> {
  await ownMethodOrThrow(caller.userId, pmId);
  const { client } = await stripeGateway();
  await client.paymentMethods.detach(pmId).catch((e: unknown) => {
    // Already detached at Stripe (a retry): forget it here too.
    if (e instanceof Stripe.errors.StripeInvalidRequestError) return null;
    return fromStripeError(e);
  });
  const successor = await db().$transaction(async (tx) => {
    await lockBilling(tx, caller.userId);
    await tx.paymentMethod.deleteMany({ where: { id: pmId, userId: caller.userId } });
    const account = await tx.billingAccount.findUnique({ where: { userId: caller.userId } });
    if (account?.defaultPaymentMethodId !== pmId) return null;
    const next = await tx.paymentMethod.findFirst({ where: { userId: caller.userId }, orderBy: { createdAt: "desc" } });
    await tx.billingAccount.update({ where: { userId: caller.userId }, data: { defaultPaymentMethodId: next?.id ?? null } });
    return next && account.stripeCustomerId ? { customer: account.stripeCustomerId, pm: next.id } : null;
  }, TX_OPTIONS);
  // Stripe forgets a detached default: the card that is now the default here is the one it charges.
  if (successor) await chargeCardAtStripe(caller.userId, successor.customer, successor.pm);
  return null;
}

/** Records (or updates) an invoice from Stripe's object, once per Stripe invoice id. */
export async function recordInvoice(userId: string, inv: Stripe.Invoice): Promise<void> {
  const data = { amountCents: inv.amount_paid || inv.amount_due, currency: inv.currency, status: inv.status ?? "open", hostedUrl: inv.hosted_invoice_url ?? null };
  await db().invoice.upsert({ where: { stripeInvoiceId: inv.id! }, create: { userId, stripeInvoiceId: inv.id!, ...data, createdAt: new Date(inv.created * 1000) }, update: data });
}

/** A page of rows ordered newest first; `cursor` is the last item's id (ties on time never lose or repeat one). */
async function page<T extends { id: string; createdAt: Date }>(find: (args: { take: number; cursor?: { id: string }; skip?: number }) => Promise<T[]>, limit: number, cursor: string | undefined) {
  const rows = await find({ take: limit + 1, ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}) });
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
}

async function checkCursor(kind: "transaction" | "invoice", userId: string, cursor: string | undefined): Promise<void> {
  if (!cursor) return;
  const found = kind === "transaction" ? await db().ledgerTransaction.findFirst({ where: { id: cursor, userId }, select: { id: true } }) : await db().invoice.findFirst({ where: { id: cursor, userId }, select: { id: true } });
  if (!found) throw new ApiError("BAD_REQUEST", "cursor is not an item of this list", { issues: [{ path: "query.cursor", message: "must be the nextCursor of a previous page", code: "invalid_format" }] });
}

export async function listTransactions(caller: Caller, q: { limit: number; cursor?: string }) {
  await checkCursor("transaction", caller.userId, q.cursor);
  const p = await page((args) => db().ledgerTransaction.findMany({ where: { userId: caller.userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...args }), q.limit, q.cursor);
  return {
    items: p.items.map((r) => ({ id: r.id, amountCents: r.amountCents, balanceAfterCents: r.balanceAfterCents, currency: r.currency, kind: r.kind as "grant", description: r.description, paymentIntentId: r.kind === "credit_purchase" && r.reference?.startsWith("pi_") ? r.reference : null, createdAt: r.createdAt.getTime() })),
    nextCursor: p.nextCursor,
  };
}

export async function listInvoices(caller: Caller, q: { limit: number; cursor?: string }) {
  await checkCursor("invoice", caller.userId, q.cursor);
  const p = await page((args) => db().invoice.findMany({ where: { userId: caller.userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...args }), q.limit, q.cursor);
  return {
    items: p.items.map((r) => ({ id: r.id, stripeInvoiceId: r.stripeInvoiceId, amountCents: r.amountCents, currency: r.currency, status: r.status, hostedUrl: r.hostedUrl, createdAt: r.createdAt.getTime() })),
    nextCursor: p.nextCursor,
  };
}
