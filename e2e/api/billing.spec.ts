import { expect, test } from "@playwright/test";
import { createUser, type TestUser } from "../support/users";
import { addMessageRaw, createProject, createTodo, expectError, expectNull, h, okJson, waitForStatus } from "../support/todos";

// Billing through the real `stripe` SDK against the local Stripe stand-in the server starts when
// no STRIPE_SECRET_KEY is set (docs/api.md "Billing").

type Balance = { balanceCents: number; currency: string; allowExtraSpend: boolean };
type Intent = { id: string; status: string; amountCents: number; balanceCents: number | null; clientSecret: string | null };
type Method = { id: string; last4: string; isDefault: boolean };
type Window = { limitCents: number; usedCents: number; remainingCents: number; resetsAt: number | null };
type UsageStatus = { tier: string; balanceCents: number; allowExtraSpend: boolean; session: Window; weekly: Window; monthly: Window; canStartTurn: boolean; blockedBy: string | null };

async function saveCard(u: TestUser, card = "pm_card_visa"): Promise<Method> {
  const si = await okJson<{ status: string; paymentMethod: Method; testMode: boolean }>(await u.session.post("/api/v1/billing/setup-payment-method", { headers: h(u), data: { paymentMethodId: card } }));
  expect(si.status).toBe("succeeded");
  expect(si.testMode).toBe(true);
  return si.paymentMethod;
}

async function addCredit(u: TestUser, amountCents: number, paymentMethodId: string, key?: string) {
  return u.session.post("/api/v1/billing/create-payment-intent", { headers: { ...h(u), ...(key ? { "idempotency-key": key } : {}) }, data: { amountCents, paymentMethodId } });
}

const usage = async (u: TestUser) => okJson<UsageStatus>(await u.session.get("/api/v1/billing/usage", { headers: h(u) }));

test("every billing operation needs a person's credential: 401 without one", async ({ request }) => {
  const calls: [string, string][] = [
    ["GET", "/billing/balance"], ["GET", "/billing/transactions"], ["GET", "/billing/invoices"], ["POST", "/billing/create-payment-intent"], ["POST", "/billing/setup-payment-method"],
    ["GET", "/billing/payment-methods"], ["POST", "/billing/set-default-payment-method"], ["DELETE", "/billing/payment-methods/pm_x"], ["GET", "/billing/subscription"], ["POST", "/billing/subscription"],
    ["DELETE", "/billing/subscription"], ["PATCH", "/billing/subscription"], ["GET", "/billing/subscription/plans"], ["GET", "/billing/usage"], ["PATCH", "/billing/extra-spend"], ["GET", "/usage"],
  ];
  for (const [method, path] of calls) {
    const res = await request.fetch(`/api/v1${path}`, { method, data: method === "GET" ? undefined : {} });
    expect(res.status(), `${method} ${path}`).toBe(401);
  }
});

test("credit: a saved card adds credit once per Idempotency-Key; transactions page; declines are 402 with Stripe's reason", async ({}, info) => {
  const u = await createUser(info, "credit");
  expect(await okJson<Balance>(await u.session.get("/api/v1/billing/balance", { headers: h(u) }))).toEqual({ balanceCents: 0, currency: "usd", allowExtraSpend: false });
  const card = await saveCard(u);
  expect(card).toMatchObject({ last4: "4242", isDefault: true });

  const first = await okJson<Intent>(await addCredit(u, 1200, card.id, "add-1200"));
  expect(first).toMatchObject({ status: "succeeded", amountCents: 1200, balanceCents: 1200, clientSecret: null });
  const replay = await addCredit(u, 1200, card.id, "add-1200");
  expect(replay.headers()["idempotent-replayed"]).toBe("true");
  expect(((await replay.json()) as Intent).id).toBe(first.id);
  await okJson<Intent>(await addCredit(u, 500, card.id));
  expect((await okJson<Balance>(await u.session.get("/cookie/v1/billing/balance"))).balanceCents).toBe(1700);

  const page1 = await okJson<{ items: { amountCents: number; kind: string }[]; nextCursor: string | null }>(await u.session.get("/api/v1/billing/transactions", { headers: h(u), params: { limit: 1 } }));
  expect(page1.items).toHaveLength(1);
  expect(page1.nextCursor).not.toBeNull();
  const page2 = await okJson<{ items: { amountCents: number; kind: string }[]; nextCursor: string | null }>(await u.session.get("/api/v1/billing/transactions", { headers: h(u), params: { limit: 1, cursor: page1.nextCursor! } }));
  expect(page2.nextCursor).toBeNull();
  expect([...page1.items, ...page2.items].map((i) => [i.kind, i.amountCents])).toEqual([["credit_purchase", 500], ["credit_purchase", 1200]]);
  await expectError(await u.session.get("/api/v1/billing/transactions", { headers: h(u), params: { cursor: "nope" } }), 400, "BAD_REQUEST");

  const declined = await expectError(await addCredit(u, 1000, "pm_card_chargeDeclined"), 402, "PAYMENT_REQUIRED");
  expect(declined.message).toBe("Your card was declined.");
  expect(declined.data).toMatchObject({ declineCode: "generic_decline" });
  await expectError(await u.session.post("/api/v1/billing/setup-payment-method", { headers: h(u), data: { paymentMethodId: "pm_card_chargeDeclinedInsufficientFunds" } }), 402, "PAYMENT_REQUIRED");
  await expectError(await addCredit(u, 50, card.id), 400, "BAD_REQUEST");
  await expectError(await u.session.post("/api/v1/billing/create-payment-intent", { headers: h(u), data: { amountCents: "10" } }), 400, "BAD_REQUEST");
  expect((await okJson<Balance>(await u.session.get("/api/v1/billing/balance", { headers: h(u) }))).balanceCents).toBe(1700);
});

test("cards: list, make default, remove; someone else's card is 404", async ({}, info) => {
  const u = await createUser(info, "cards");
  const other = await createUser(info, "cards-other");
  const a = await saveCard(u);
  const b = await saveCard(u, "pm_card_mastercard");
  const theirs = await saveCard(other);
  let list = await okJson<{ items: Method[]; defaultPaymentMethodId: string }>(await u.session.get("/api/v1/billing/payment-methods", { headers: h(u) }));
  expect(list.items.map((m) => [m.id, m.isDefault])).toEqual([[a.id, true], [b.id, false]]);
  await expectNull(await u.session.post("/api/v1/billing/set-default-payment-method", { headers: h(u), data: { paymentMethodId: b.id } }));
  list = await okJson(await u.session.get("/api/v1/billing/payment-methods", { headers: h(u) }));
  expect(list.defaultPaymentMethodId).toBe(b.id);

  await expectError(await u.session.post("/api/v1/billing/set-default-payment-method", { headers: h(u), data: { paymentMethodId: theirs.id } }), 404, "NOT_FOUND");
  await expectError(await u.session.delete(`/api/v1/billing/payment-methods/${theirs.id}`, { headers: h(u), data: { paymentMethodId: theirs.id } }), 404, "NOT_FOUND");
  await expectError(await addCredit(u, 1000, theirs.id), 404, "NOT_FOUND");
  await expectError(await u.session.delete(`/api/v1/billing/payment-methods/${a.id}`, { headers: h(u), data: { paymentMethodId: b.id } }), 400, "BAD_REQUEST");

  await expectNull(await u.session.delete(`/api/v1/billing/payment-methods/${b.id}`, { headers: h(u), data: { paymentMethodId: b.id } }));
  list = await okJson(await u.session.get("/api/v1/billing/payment-methods", { headers: h(u) }));
  expect(list.items.map((m) => m.id)).toEqual([a.id]);
  expect(list.defaultPaymentMethodId).toBe(a.id);
  expect((await okJson<{ items: Method[] }>(await other.session.get("/api/v1/billing/payment-methods", { headers: h(other) }))).items.map((m) => m.id)).toEqual([theirs.id]);
});

test("a refused credit, card or plan request leaves no Stripe customer behind (asked of the stand-in)", async ({}, info) => {
  const u = await createUser(info, "refused");
  const other = await createUser(info, "refused-other");
  const theirs = await saveCard(other);
  // The stand-in's address, from someone else's answer; the stand-in answers Stripe's list of customers.
  const { standinUrl } = await okJson<{ standinUrl: string }>(await other.session.post("/api/v1/billing/setup-payment-method", { headers: h(other), data: {} }));
  const customersOf = async (email: string) => {
    const res = await fetch(`${standinUrl}/v1/customers?email=${encodeURIComponent(email)}`, { headers: { authorization: "Bearer sk_test_local_standin" } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { id: string }[] }).data;
  };
  expect(await customersOf(other.email)).toHaveLength(1);

  await expectError(await addCredit(u, 1000, theirs.id), 404, "NOT_FOUND");
  await expectError(await addCredit(u, 1000, "pm_does_not_exist"), 404, "NOT_FOUND");
  await expectError(await addCredit(u, 5, "pm_card_visa"), 400, "BAD_REQUEST");
  await expectError(await u.session.post("/api/v1/billing/setup-payment-method", { headers: h(u), data: { paymentMethodId: "pm_does_not_exist" } }), 404, "NOT_FOUND");
  await expectError(await u.session.post("/api/v1/billing/setup-payment-method", { headers: h(u), data: { paymentMethodId: theirs.id } }), 404, "NOT_FOUND");
  await expectError(await u.session.post("/api/v1/billing/subscription", { headers: h(u), data: { tier: "pro" } }), 402, "PAYMENT_REQUIRED");
  expect(await customersOf(u.email)).toEqual([]);
  expect((await usage(u)).balanceCents).toBe(0);
});

test("plans and subscriptions: subscribe, upgrade with proration, invoices, cancel at period end and now", async ({}, info) => {
  const u = await createUser(info, "plans");
  const plans = await okJson<{ plans: { tier: string; priceCents: number; changeNowCents: number; current: boolean }[]; currentTier: string }>(await u.session.get("/api/v1/billing/subscription/plans", { headers: h(u) }));
  expect(plans.plans.map((p) => p.tier)).toEqual(["free", "pro", "max"]);
  expect(plans.currentTier).toBe("free");
  await expectError(await u.session.post("/api/v1/billing/subscription", { headers: h(u), data: { tier: "pro" } }), 402, "PAYMENT_REQUIRED");
  await expectError(await u.session.post("/api/v1/billing/subscription", { headers: h(u), data: { tier: "gold" } }), 400, "BAD_REQUEST");
  await saveCard(u);

  const created = await okJson<{ subscription: { tier: string; status: string; currentPeriodEnd: number }; chargedNowCents: number }>(await u.session.post("/api/v1/billing/subscription", { headers: { ...h(u), "idempotency-key": "sub-pro" }, data: { tier: "pro" } }));
  expect(created.subscription).toMatchObject({ tier: "pro", status: "active" });
  expect(created.chargedNowCents).toBe(2000);
  expect(created.subscription.currentPeriodEnd).toBeGreaterThan(Date.now());
  await expectError(await u.session.post("/api/v1/billing/subscription", { headers: h(u), data: { tier: "max" } }), 409, "CONFLICT");

  const upgraded = await okJson<{ subscription: { tier: string }; chargedNowCents: number }>(await u.session.patch("/api/v1/billing/subscription", { headers: h(u), data: { tier: "max" } }));
  expect(upgraded.subscription.tier).toBe("max");
  expect(upgraded.chargedNowCents).toBeGreaterThan(7900);
  await expectError(await u.session.patch("/api/v1/billing/subscription", { headers: h(u), data: { tier: "max" } }), 409, "CONFLICT");
  const invoices = await okJson<{ items: { amountCents: number; status: string }[] }>(await u.session.get("/api/v1/billing/invoices", { headers: h(u) }));
  expect(invoices.items.map((i) => i.status)).toEqual(["paid", "paid"]);
  expect((await usage(u)).tier).toBe("max");

  const atEnd = await okJson<{ subscription: { tier: string; cancelAtPeriodEnd: boolean } }>(await u.session.delete("/api/v1/billing/subscription", { headers: h(u), data: {} }));
  expect(atEnd.subscription).toMatchObject({ tier: "max", cancelAtPeriodEnd: true });
  const now = await okJson<{ subscription: { tier: string } }>(await u.session.delete("/api/v1/billing/subscription", { headers: h(u), data: { atPeriodEnd: false } }));
  expect(now.subscription.tier).toBe("free");
  await expectError(await u.session.delete("/api/v1/billing/subscription", { headers: h(u), data: {} }), 409, "CONFLICT");
});

test("a turn that uses up the session window: the next turn is 402 with extra spend off, runs on credit with it on", async ({}, info) => {
  const u = await createUser(info, "window");
  const project = await createProject(u, "Windows");
  const before = await usage(u);
  expect(before).toMatchObject({ tier: "free", canStartTurn: true, blockedBy: null });
  expect(before.session.resetsAt).toBeNull();

  // The local agent costs a cent per 100 words: 6000 words is more than the free session window (50 cents).
  const long = `Please read this. ${"word ".repeat(6000)}`;
  const todo = await createTodo(u, project.id, { content: long, startProcessing: true });
  await waitForStatus(u, todo.id, "READY");
  const after = await usage(u);
  expect(after.session.remainingCents).toBe(0);
  expect(after.session.usedCents).toBeGreaterThan(50);
  expect(after.session.resetsAt).toBeGreaterThan(Date.now());
  expect(after).toMatchObject({ canStartTurn: false, blockedBy: "session" });

  const refused = await expectError(await addMessageRaw(u, todo.id, { content: "and now?", startProcessing: true }), 402, "PAYMENT_REQUIRED");
  expect(refused.message).toContain("session");
  expect(refused.data).toMatchObject({ window: "session", resetsAt: after.session.resetsAt });
  const stillReady = await okJson<{ status: string; messages: unknown[] }>(await u.session.get(`/api/v1/todos/${todo.id}`, { headers: h(u) }));
  expect(stillReady.status).toBe("READY");
  expect(stillReady.messages).toHaveLength(2);

  await expectNull(await u.session.patch("/api/v1/billing/extra-spend", { headers: h(u), data: { allowExtraSpend: true } }));
  const card = await saveCard(u);
  await okJson<Intent>(await addCredit(u, 500, card.id));
  expect((await usage(u)).canStartTurn).toBe(true);
  const msg = await addMessageRaw(u, todo.id, { content: "go on with credit", startProcessing: true });
  expect(msg.status(), await msg.text()).toBe(200);
  await waitForStatus(u, todo.id, "READY");
  const paid = await usage(u);
  expect(paid.balanceCents).toBeLessThan(500);
  const tx = await okJson<{ items: { kind: string; amountCents: number }[] }>(await u.session.get("/api/v1/billing/transactions", { headers: h(u) }));
  expect(tx.items[0]!.kind).toBe("usage_charge");
  expect(tx.items[0]!.amountCents).toBe(paid.balanceCents - 500);

  const range = await okJson<{ totals: { turns: number; costCents: number }; days: { date: string; turns: number }[]; projects: { projectId: string; turns: number }[] }>(await u.session.get("/api/v1/usage", { headers: h(u) }));
  expect(range.totals.turns).toBe(2);
  expect(range.days).toEqual([expect.objectContaining({ date: new Date().toISOString().slice(0, 10), turns: 2 })]);
  expect(range.projects).toEqual([expect.objectContaining({ projectId: project.id, turns: 2 })]);
  await expectError(await u.session.get("/api/v1/usage", { headers: h(u), params: { from: "yesterday" } }), 400, "BAD_REQUEST");
  const empty = await okJson<{ totals: { turns: number } }>(await u.session.get("/api/v1/usage", { headers: h(u), params: { from: "2020-01-01", to: "2020-02-01" } }));
  expect(empty.totals.turns).toBe(0);
});

test("the Stripe webhook refuses a bad signature with 400 and changes nothing", async ({ request }, info) => {
  const u = await createUser(info, "hook");
  const body = JSON.stringify({ id: "evt_forged_e2e", object: "event", type: "payment_intent.succeeded", created: Math.floor(Date.now() / 1000), data: { object: { id: "pi_forged", status: "succeeded", amount_received: 100000, currency: "usd", metadata: { purpose: "credit" } } } });
  const res = await request.post("/webhooks/stripe", { headers: { "content-type": "application/json", "stripe-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }, data: body });
  expect(res.status()).toBe(400);
  expect((await request.post("/webhooks/stripe", { headers: { "content-type": "application/json" }, data: body })).status()).toBe(400);
  expect((await okJson<Balance>(await u.session.get("/api/v1/billing/balance", { headers: h(u) }))).balanceCents).toBe(0);
});
