import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { db } from "../../runtime.ts";
import { listInvoices, setDefaultPaymentMethod, setupPaymentMethod } from "./payments.ts";
import { cancelSubscription, createSubscription, getSubscription } from "./subscriptions.ts";
import { billingTestbed } from "./testing.ts";

// Renewals through Stripe's test clocks: with STRIPE_TEST_CLOCKS each new customer lives on a
// clock of its own, and moving it past the period's end renews the plan (or ends it), with the
// webhooks Stripe sends, applied by the app's webhook jobs.
const bed = billingTestbed({ STRIPE_TEST_CLOCKS: "1" });

async function clockOf(userId: string): Promise<string> {
  const account = await db().billingAccount.findUniqueOrThrow({ where: { userId }, select: { stripeCustomerId: true } });
  const customer = await bed.gw().client.customers.retrieve(account.stripeCustomerId!);
  assert.ok(!customer.deleted && typeof customer.test_clock === "string", "the customer lives on a test clock");
  return customer.test_clock as string;
}

/** Moves the user's clock to `seconds` past `at` (ms) and waits for the webhooks to be applied. */
async function advancePast(userId: string, at: number, seconds = 60) {
  const clock = await clockOf(userId);
  const answer = await bed.gw().client.testHelpers.testClocks.advance(clock, { frozen_time: Math.floor(at / 1000) + seconds });
  assert.equal(answer.status, "advancing");
  assert.equal((await bed.gw().client.testHelpers.testClocks.retrieve(clock)).status, "ready");
  await bed.settled();
}

describe("renewals (test clocks)", () => {
  test("moving the clock past the period's end renews the plan: a second invoice and the next period", async () => {
    const { user, caller } = await bed.userWithCard();
    const created = await createSubscription(caller, { tier: "pro" }, "renew-1");
    await bed.settled();
    const first = created.subscription;
    assert.equal((await listInvoices(caller, { limit: 10 })).items.length, 1);

    await advancePast(user.id, first.currentPeriodEnd!);
    const renewed = await getSubscription(caller);
    assert.equal(renewed.tier, "pro");
    assert.equal(renewed.status, "active");
    assert.equal(renewed.currentPeriodStart, first.currentPeriodEnd, "the next period starts where the last one ended");
    assert.ok(renewed.currentPeriodEnd! > first.currentPeriodEnd! + 27 * 86_400_000, "and lasts a month");
    const invoices = (await listInvoices(caller, { limit: 10 })).items;
    assert.deepEqual(invoices.map((i) => [i.amountCents, i.status]), [[2000, "paid"], [2000, "paid"]]);

    // Two more months at once: two more renewals, in order.
    await advancePast(user.id, renewed.currentPeriodEnd! + 31 * 86_400_000);
    assert.equal((await listInvoices(caller, { limit: 10 })).items.length, 4);
    assert.ok((await getSubscription(caller)).currentPeriodStart! > renewed.currentPeriodEnd!);
  });

  test("cancelled at period end: the plan stays until then and ends when the clock passes it", async () => {
    const { user, caller } = await bed.userWithCard();
    await createSubscription(caller, { tier: "max" }, "renew-2");
    await bed.settled();
    await cancelSubscription(caller, { atPeriodEnd: true });
    await bed.settled();
    const ending = await getSubscription(caller);
    assert.equal(ending.tier, "max");
    assert.equal(ending.cancelAtPeriodEnd, true);

    await advancePast(user.id, ending.currentPeriodEnd!);
    const ended = await getSubscription(caller);
    assert.equal(ended.tier, "free");
    assert.equal(ended.status, "canceled");
    assert.equal((await listInvoices(caller, { limit: 10 })).items.length, 1, "no renewal invoice");
  });

  test("a renewal the card declines leaves the plan past due, with the open invoice listed", async () => {
    const { user, caller } = await bed.userWithCard();
    const created = await createSubscription(caller, { tier: "pro" }, "renew-3");
    await bed.settled();
    // Stripe's card that saves fine and declines every charge, made the default.
    const failing = await setupPaymentMethod(caller, { paymentMethodId: "pm_card_chargeCustomerFail" }, null);
    await setDefaultPaymentMethod(caller, failing.paymentMethod!.id);

    await advancePast(user.id, created.subscription.currentPeriodEnd!);
    const due = await getSubscription(caller);
    assert.equal(due.status, "past_due");
    assert.equal(due.tier, "pro", "a past-due plan keeps its tier while Stripe retries");
    const invoices = (await listInvoices(caller, { limit: 10 })).items;
    assert.deepEqual(invoices.map((i) => [i.amountCents, i.status]).sort(), [[2000, "open"], [2000, "paid"]]);
  });

  test("a clock only moves forward; an unknown clock is 404 from Stripe", async () => {
    const { user } = await bed.userWithCard();
    await bed.settled();
    const clock = await clockOf(user.id);
    const now = (await bed.gw().client.testHelpers.testClocks.retrieve(clock)).frozen_time;
    await assert.rejects(bed.gw().client.testHelpers.testClocks.advance(clock, { frozen_time: now }), /after the current frozen time/);
    await assert.rejects(bed.gw().client.testHelpers.testClocks.retrieve("clock_nosuch"), /No such test_clock/);
  });
});
