import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../http/errors.ts";
import { apiError, callerOf } from "../../testing/caller.ts";
import { createTestUser } from "../../testing/runtime.ts";
import { balanceOf, ledgerSum, postTransaction } from "./ledger.ts";
import { createPaymentIntent, listInvoices, listPaymentMethods, listTransactions, setupPaymentMethod } from "./payments.ts";
import { signStripePayload } from "./standin/server.ts";
import { billingTestbed } from "./testing.ts";
import { createSubscription, getSubscription, syncSubscription, updateSubscription } from "./subscriptions.ts";
import { assertCanStartTurn, chargeTurn, getUsageStatus, setAllowExtraSpend, usageRange } from "./usage.ts";
import { getTeamUsage } from "../teams/usage.ts";
import { applyEvent, webhookFaults } from "./webhook-job.ts";
import { receiveWebhook } from "./webhooks.ts";

const bed = billingTestbed();
const t = () => bed.rt();
const { settled, userWithCard } = bed;

describe("credit through Stripe (the stand-in, through the SDK)", () => {
  test("a saved card adds credit once: the request credits, the webhook and its replay change nothing", async () => {
    const { user, caller, pm } = await userWithCard();
    assert.equal(pm.isDefault, true);
    assert.equal(pm.last4, "4242");
    const pi = await createPaymentIntent(caller, { amountCents: 1500, currency: "usd", paymentMethodId: pm.id }, "key-1");
    assert.equal(pi.status, "succeeded");
    assert.equal(pi.balanceCents, 1500);
    await settled();
    const event = bed.gw().standin!.events.find((e) => e.type === "payment_intent.succeeded" && (e.data as { object: { id: string } }).object.id === pi.id)!;
    assert.ok(await t().prisma.stripeEvent.findUnique({ where: { id: String(event.id) } }), "the webhook was applied (as a no-op credit)");
    assert.equal(await bed.gw().standin!.deliver(event), 200, "a replayed event is accepted");
    await settled();
    assert.equal((await balanceOf(user.id)).balanceCents, 1500);
    assert.equal(await ledgerSum(user.id), 1500);
    // The same Idempotency-Key is the same payment at Stripe.
    const again = await createPaymentIntent(caller, { amountCents: 1500, currency: "usd", paymentMethodId: pm.id }, "key-1");
    assert.equal(again.id, pi.id);
    assert.equal((await balanceOf(user.id)).balanceCents, 1500);
    const page = await listTransactions(caller, { limit: 50 });
    assert.deepEqual(page.items.map((i) => [i.kind, i.amountCents]), [["credit_purchase", 1500]]);
  });

  test("a payment confirmed in the browser is credited by the webhook job", async () => {
    const { user, caller } = await userWithCard();
    const pi = await createPaymentIntent(caller, { amountCents: 700, currency: "usd" }, null);
    assert.equal(pi.status, "requires_payment_method");
    assert.ok(pi.clientSecret);
    await bed.gw().client.paymentIntents.confirm(pi.id, { payment_method: "pm_card_visa" });
    await settled();
    assert.equal((await balanceOf(user.id)).balanceCents, 700);
  });

  test("a card that asks for 3-D Secure: the bank's test page completes it (credited once by the webhook) or fails it (nothing charged)", async () => {
    const { user, caller, pm } = await userWithCard("pm_card_authenticationRequired");
    const pi = await createPaymentIntent(caller, { amountCents: 900, currency: "usd", paymentMethodId: pm.id }, null);
    assert.equal(pi.status, "requires_action");
    assert.match(pi.nextAction?.url ?? "", new RegExp(`/test-mode/authenticate/${pi.id}$`));
    const page = await fetch(`${pi.nextAction!.url}?return_url=${encodeURIComponent("http://app.test/billing?amount=900")}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Complete authentication/);
    assert.match(html, /value="http:\/\/app\.test\/billing\?amount=900"/);
    assert.equal((await fetch(`${pi.nextAction!.url}?return_url=javascript:alert(1)`).then((r) => r.text())).includes("javascript:"), false, "only an http(s) return_url is kept");
    const done = await fetch(pi.nextAction!.url!, { method: "POST", redirect: "manual", body: new URLSearchParams({ result: "complete", return_url: "http://app.test/billing?amount=900" }) });
    assert.equal(done.status, 303);
    const back = new URL(done.headers.get("location")!);
    assert.deepEqual([back.origin + back.pathname, back.searchParams.get("payment_intent"), back.searchParams.get("redirect_status"), back.searchParams.get("amount")], ["http://app.test/billing", pi.id, "succeeded", "900"]);
    assert.equal((await fetch(pi.nextAction!.url!, { method: "POST", body: new URLSearchParams({ result: "complete" }) })).status, 409, "authenticated once");
    await settled();
    assert.equal((await balanceOf(user.id)).balanceCents, 900);
    assert.equal((await listTransactions(caller, { limit: 50 })).items[0]!.paymentIntentId, pi.id);

    const refused = await createPaymentIntent(caller, { amountCents: 400, currency: "usd", paymentMethodId: pm.id }, null);
    const failed = await fetch(refused.nextAction!.url!, { method: "POST", redirect: "manual", body: new URLSearchParams({ result: "fail", return_url: "http://app.test/billing" }) });
    assert.equal(new URL(failed.headers.get("location")!).searchParams.get("redirect_status"), "failed");
    await settled();
    assert.equal((await balanceOf(user.id)).balanceCents, 900, "a failed authentication charges nothing");
  });

  test("a declined card is 402 with Stripe's reason and adds nothing", async () => {
    const { user, caller } = await userWithCard();
    await assert.rejects(createPaymentIntent(caller, { amountCents: 1000, currency: "usd", paymentMethodId: "pm_card_chargeDeclined" }, null), apiError("PAYMENT_REQUIRED", /declined/));
    await assert.rejects(setupPaymentMethod(caller, { paymentMethodId: "pm_card_chargeDeclinedInsufficientFunds" }, null), apiError("PAYMENT_REQUIRED", /insufficient funds/));
    await settled();
    assert.equal((await balanceOf(user.id)).balanceCents, 0);
    assert.equal((await listPaymentMethods(caller)).items.length, 1);
  });

  test("someone else's card is 404", async () => {
    const a = await userWithCard();
    const b = await userWithCard();
    await assert.rejects(createPaymentIntent(b.caller, { amountCents: 1000, currency: "usd", paymentMethodId: a.pm.id }, null), apiError("NOT_FOUND"));
    // Saving it is refused alike (not Stripe's "already attached", which would confirm it exists), and changes nothing.
    await assert.rejects(setupPaymentMethod(b.caller, { paymentMethodId: a.pm.id }, null), apiError("NOT_FOUND"));
    assert.deepEqual((await listPaymentMethods(b.caller)).items.map((m) => m.id), [b.pm.id]);
    assert.deepEqual((await listPaymentMethods(a.caller)).items.map((m) => m.id), [a.pm.id]);
  });

  test("a request refused by our checks makes no Stripe customer: the customer is made only when the payment goes ahead", async () => {
    const other = await userWithCard();
    const user = await createTestUser(t().prisma);
    const caller = callerOf(user);
    await assert.rejects(createPaymentIntent(caller, { amountCents: 1000, currency: "usd", paymentMethodId: other.pm.id }, null), apiError("NOT_FOUND"));
    await assert.rejects(createPaymentIntent(caller, { amountCents: 1000, currency: "usd", paymentMethodId: "pm_does_not_exist" }, null), apiError("NOT_FOUND"));
    await assert.rejects(setupPaymentMethod(caller, { paymentMethodId: "pm_does_not_exist" }, null), apiError("NOT_FOUND"));
    await assert.rejects(createSubscription(caller, { tier: "pro" }, null), apiError("PAYMENT_REQUIRED"));
    const held = await bed.gw().client.customers.list({ email: user.email });
    assert.deepEqual(held.data.map((c) => c.id), [], "the stand-in holds no customer for the user");
    assert.equal((await t().prisma.billingAccount.findUnique({ where: { userId: user.id } }))?.stripeCustomerId ?? null, null);
    // A request that goes ahead makes the one customer.
    await setupPaymentMethod(caller, { paymentMethodId: "pm_card_visa" }, null);
    assert.equal((await bed.gw().client.customers.list({ email: user.email })).data.length, 1);
  });

  test("a badly signed webhook is 400 and changes nothing", async () => {
    const { user, caller } = await userWithCard();
    const pi = await createPaymentIntent(caller, { amountCents: 900, currency: "usd" }, null);
    const body = JSON.stringify({ id: "evt_forged", object: "event", type: "payment_intent.succeeded", created: Math.floor(Date.now() / 1000), data: { object: { ...pi, status: "succeeded", amount_received: 900 } } });
    await assert.rejects(receiveWebhook(body, signStripePayload(body, "whsec_not_the_secret")), apiError("BAD_REQUEST"));
    await assert.rejects(receiveWebhook(body, null), apiError("BAD_REQUEST"));
    // Signed right but too old: outside the 300 s tolerance.
    await assert.rejects(receiveWebhook(body, signStripePayload(body, bed.gw().webhookSecret, Math.floor(Date.now() / 1000) - 301)), apiError("BAD_REQUEST"));
    await settled();
    assert.equal((await balanceOf(user.id)).balanceCents, 0);
    assert.equal(await t().prisma.stripeEvent.count({ where: { id: "evt_forged" } }), 0);
  });

  test("a crash between receipt and apply: the job runs again and applies the event once", async () => {
    const { user, caller } = await userWithCard();
    const pi = await createPaymentIntent(caller, { amountCents: 600, currency: "usd" }, null);
    webhookFaults.failNextApply = 1;
    await bed.gw().client.paymentIntents.confirm(pi.id, { payment_method: "pm_card_visa" });
    await settled();
    assert.equal(webhookFaults.failNextApply, 0, "the first run failed");
    assert.equal((await balanceOf(user.id)).balanceCents, 600);
    assert.equal(await t().prisma.ledgerTransaction.count({ where: { userId: user.id } }), 1);
  });
});

describe("refused queries name the query parameter in data.issues, like the pipeline's validation", () => {
  const issuePaths = (err: unknown) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, "BAD_REQUEST");
    return (err.data?.issues as { path: string; code?: string }[]).map((i) => { assert.ok(i.code, `${i.path}: no code`); return i.path; });
  };
  test("a cursor that is not an item of the caller's list: query.cursor", async () => {
    const { caller } = await userWithCard();
    await assert.rejects(listTransactions(caller, { limit: 50, cursor: "nope" }), (e) => assert.deepEqual(issuePaths(e), ["query.cursor"]) ?? true);
    await assert.rejects(listInvoices(caller, { limit: 50, cursor: "nope" }), (e) => assert.deepEqual(issuePaths(e), ["query.cursor"]) ?? true);
  });
  test("usage ranges: query.from, query.to", () => {
    const paths = (range: { from?: string; to?: string }) => {
      try {
        usageRange(range);
      } catch (e) {
        return issuePaths(e);
      }
      return [];
    };
    assert.deepEqual(paths({ from: "2026-01-01", to: "2026-02-01" }), []);
    assert.deepEqual(paths({ from: "2026-02-01", to: "2026-01-01" }), ["query.from"]);
    assert.deepEqual(paths({ from: "2020-01-01", to: "2026-01-01" }), ["query.from"]);
  });
});

describe("subscriptions", () => {
  test("subscribe, upgrade with proration now, invoices recorded; events out of order change nothing", async () => {
    const { user, caller } = await userWithCard();
    const hookUrl = bed.gw().standin!.webhookUrl;
    bed.gw().standin!.webhookUrl = undefined; // hold the events to deliver them out of order
    try {
      const created = await createSubscription(caller, { tier: "pro" }, "sub-1");
      assert.equal(created.subscription.tier, "pro");
      assert.equal(created.chargedNowCents, 2000);
      assert.ok(created.subscription.currentPeriodEnd! > Date.now());
      const upgraded = await updateSubscription(caller, { tier: "max" }, "up-1");
      assert.equal(upgraded.subscription.tier, "max");
      assert.ok(upgraded.chargedNowCents > 7900 && upgraded.chargedNowCents <= 8000, `prorated difference, got ${upgraded.chargedNowCents}`);
    } finally {
      bed.gw().standin!.webhookUrl = hookUrl;
    }
    const subEvents = bed.gw().standin!.events.filter((e) => String(e.type).startsWith("customer.subscription.") && (e.data as { object: { customer: string } }).object.customer === (bed.gw().standin!.events.at(-1)!.data as { object: { customer: string } }).object.customer);
    assert.deepEqual(subEvents.map((e) => e.type), ["customer.subscription.created", "customer.subscription.updated"]);
    // Newest first, then the older one: the older one must not put "pro" back.
    for (const e of [...subEvents].reverse()) assert.equal(await bed.gw().standin!.deliver(e), 200);
    await settled();
    assert.equal((await getSubscription(caller)).tier, "max");
    assert.equal(await t().prisma.invoice.count({ where: { userId: user.id } }), 2);
  });
  test("a webhook racing a cancel: the older event's read-back cannot put the plan back over the cancel", async () => {
    const { caller, user } = await userWithCard();
    const standin = bed.gw().standin!;
    const hookUrl = standin.webhookUrl;
    standin.webhookUrl = undefined; // hold the events: the created event is applied by hand below
    let created;
    try {
      created = await createSubscription(caller, { tier: "pro" }, "race-1");
    } finally {
      standin.webhookUrl = hookUrl;
    }
    const subId = created.subscription.stripeSubscriptionId!;
    const event = standin.events.findLast((e) => e.type === "customer.subscription.created" && (e.data as { object: { id: string } }).object.id === subId)!;
    // The webhook reads the subscription back (still active); before it writes, the plan is
    // cancelled at Stripe and the cancel request applies its answer, as the flaky CI run saw.
    const subs = bed.gw().client.subscriptions;
    const original = subs.retrieve.bind(subs);
    let cancelApplied: Promise<boolean> | undefined;
    subs.retrieve = (async (id: string) => {
      const before = await original(id);
      subs.retrieve = original;
      await subs.cancel(id);
      cancelApplied = syncSubscription(user.id, id, Math.floor(Date.now() / 1000));
      return before;
    }) as typeof subs.retrieve;
    try {
      await applyEvent(String(event.id));
    } finally {
      subs.retrieve = original;
    }
    assert.equal(await cancelApplied, true);
    await settled();
    const after = await getSubscription(caller);
    assert.equal(after.tier, "free");
    assert.equal(after.status, "canceled");
  });
});

describe("usage windows", () => {
  const turn = (userId: string, projectId: string, n: number, costCents: number) => ({ userId, projectId, todoId: `todo-${n}`, messageId: `msg-${userId}-${n}`, costCents, tokensIn: 10, tokensOut: 10 });

  test("a turn that uses up the session window: the next is 402 with extra spend off, runs on credit with it on", async () => {
    const user = await createTestUser(t().prisma);
    const project = await t().prisma.project.create({ data: { ownerId: user.id, name: "P" } });
    const before = await getUsageStatus(user.id);
    assert.equal(before.session.resetsAt, null, "no session window open yet");
    assert.equal(before.canStartTurn, true);
    // The free plan's session window holds 50 cents; a 70-cent turn that started is finished and counted.
    await t().prisma.$transaction((tx) => chargeTurn(tx, turn(user.id, project.id, 1, 70)));
    const used = await getUsageStatus(user.id);
    assert.equal(used.session.usedCents, 70);
    assert.equal(used.session.remainingCents, 0);
    assert.ok(used.session.resetsAt! > Date.now());
    assert.equal(used.blockedBy, "session");
    await assert.rejects(
      t().prisma.$transaction((tx) => assertCanStartTurn(tx, user.id)),
      (e: unknown) => e instanceof ApiError && e.code === "PAYMENT_REQUIRED" && (e.data as { window: string }).window === "session" && (e.data as { resetsAt: number }).resetsAt === used.session.resetsAt,
    );
    // Extra spend with no credit is still refused; with credit the turn runs and is paid from it.
    await setAllowExtraSpend(user.id, true);
    await assert.rejects(t().prisma.$transaction((tx) => assertCanStartTurn(tx, user.id)), apiError("PAYMENT_REQUIRED"));
    await postTransaction(user.id, { amountCents: 30, kind: "grant" });
    await t().prisma.$transaction((tx) => assertCanStartTurn(tx, user.id));
    const paid = await t().prisma.$transaction((tx) => chargeTurn(tx, turn(user.id, project.id, 2, 45)));
    assert.deepEqual(paid, { allowanceCents: 15, creditCents: 30 }, "credit to zero, never below; the rest counted on the window");
    assert.equal((await balanceOf(user.id)).balanceCents, 0);
    // Charged once per reply.
    assert.equal(await t().prisma.$transaction((tx) => chargeTurn(tx, turn(user.id, project.id, 2, 45))), null);
    assert.equal(await t().prisma.usageRecord.count({ where: { userId: user.id } }), 2);
  });

  test("a team's shared pool: two members' concurrent turns draw on the owner's windows and credit, and the team usage sums to the ledger", async () => {
    const [owner, a, b] = [await createTestUser(t().prisma), await createTestUser(t().prisma), await createTestUser(t().prisma)];
    const team = await t().prisma.team.create({
      data: { ownerId: owner.id, name: "Pool", members: { create: [{ userId: owner.id, role: "owner", via: "owner" }, { userId: a.id }, { userId: b.id }] } },
    });
    const project = await t().prisma.project.create({ data: { ownerId: owner.id, name: "Shared" } });
    await setAllowExtraSpend(owner.id, true);
    await postTransaction(owner.id, { amountCents: 500, kind: "grant" });
    await postTransaction(a.id, { amountCents: 900, kind: "grant" }); // a's own credit: not the pool's
    // 20 turns of 10 cents at once, half each: 50 from the free plan's session window, 150 from the owner's credit.
    const turns = Array.from({ length: 20 }, (_, i) => turn(i % 2 ? b.id : a.id, project.id, 100 + i, 10));
    const paid = await Promise.all(turns.map((c) => t().prisma.$transaction((tx) => chargeTurn(tx, c))));
    assert.equal(paid.reduce((n, p) => n + p!.allowanceCents, 0), 50);
    assert.equal(paid.reduce((n, p) => n + p!.creditCents, 0), 150);
    assert.equal((await balanceOf(owner.id)).balanceCents, 350);
    assert.equal(await ledgerSum(owner.id), 350, "the ledger sums to the balance");
    assert.equal((await balanceOf(a.id)).balanceCents, 900, "a member's own credit is not drawn");
    const records = await t().prisma.usageRecord.findMany({ where: { todoId: { in: turns.map((c) => c.todoId) }, userId: { in: [a.id, b.id] } } });
    assert.equal(records.length, 20);
    assert.ok(records.every((r) => r.payerId === owner.id && r.teamId === team.id));
    const charges = await t().prisma.ledgerTransaction.findMany({ where: { userId: owner.id, kind: "usage_charge" } });
    assert.ok(charges.every((c) => c.teamId === team.id));
    // Every member sees the pool's windows; the next turn of anyone in the team is judged on them.
    const status = await getUsageStatus(b.id);
    assert.deepEqual(status.teamPool, { teamId: team.id, ownerId: owner.id });
    assert.equal(status.session.usedCents, 50);
    assert.equal(status.balanceCents, 350);
    assert.equal((await getUsageStatus(owner.id)).session.usedCents, 50);
    // The team's usage: per member, and in total what the pool paid (allowance plus the ledger's charges).
    const usage = await getTeamUsage({ teamId: team.id } as Parameters<typeof getTeamUsage>[0], {});
    assert.equal(usage.totals.costCents, 200);
    assert.equal(usage.totals.costCents, 50 - charges.reduce((n, c) => n + c.amountCents, 0));
    assert.deepEqual(usage.members.filter((m) => m.turns > 0).map((m) => m.costCents), [100, 100]);
    // Leaving the team: the member's next turn is their own account's again.
    await t().prisma.teamMember.deleteMany({ where: { userId: a.id } });
    assert.equal((await getUsageStatus(a.id)).teamPool, null);
    assert.equal((await getUsageStatus(a.id)).session.usedCents, 0);
  });
});
