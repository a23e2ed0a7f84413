import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser, suiteTestRuntime, withPostgresRuntime, type TestRuntime } from "../../testing/runtime.ts";
import { balanceOf, ledgerSum, postTransaction } from "./ledger.ts";
import { MONTH_MS, SESSION_WINDOW_MS, WEEK_MS } from "./plans.ts";
import { chargeTurn, setAllowExtraSpend, usageState } from "./usage.ts";

const t = suiteTestRuntime({ env: { BILLING_ENABLED: "1" } });
const H = 60 * 60 * 1000;
const D = 24 * H;

async function payer(rt: TestRuntime, createdAt: number) {
  const user = await createTestUser(rt.prisma);
  await rt.prisma.user.update({ where: { id: user.id }, data: { createdAt: new Date(createdAt) } });
  const project = await rt.prisma.project.create({ data: { ownerId: user.id, name: "P" } });
  let n = 0;
  /** A record of `allowance` cents paid from the allowance at `when`. */
  const record = (when: number, allowance: number) =>
    rt.prisma.usageRecord.create({ data: { userId: user.id, payerId: user.id, projectId: project.id, todoId: "todo", messageId: `m-${user.id}-${n++}`, costCents: allowance, allowanceCents: allowance, createdAt: new Date(when) } });
  return { user, project, record };
}

describe("usage windows computed in SQL", () => {
  test("free plan: 30-day and weekly periods from the account's start, the session window open for its length only, sums per window", async () => {
    const at = Date.UTC(2026, 10, 26, 12, 0, 0, 0);
    const t0 = at - 40 * D - 3 * H;
    const { user, record } = await payer(t, t0);
    // No account: anchored at the user's creation. Month 2 starts at t0 + 30 d, week 6 at t0 + 35 d.
    await record(t0 + 29 * D, 7); // before both
    await record(t0 + 31 * D, 11); // month only
    await record(at - 2 * H, 13); // month and week, before the session window
    await record(at - 30 * 60 * 1000, 17); // all three
    let s = await usageState(t.prisma, user.id, at);
    assert.equal(s.tier, "free");
    assert.equal(s.monthly.startedAt, t0 + 30 * D);
    assert.equal(s.monthly.resetsAt, t0 + 60 * D);
    assert.equal(s.weekly.startedAt, t0 + 35 * D);
    assert.equal(s.weekly.resetsAt, t0 + 42 * D);
    assert.equal(s.monthly.usedCents, 11 + 13 + 17);
    assert.equal(s.weekly.usedCents, 13 + 17);
    assert.equal(s.session.startedAt, null, "no session window open");
    assert.equal(s.session.usedCents, 0);
    assert.equal(s.sessionOpen, false);
    // A session window opened an hour ago: open, its sum from its start.
    await t.prisma.billingAccount.create({ data: { userId: user.id, createdAt: new Date(t0), sessionWindowStart: new Date(at - H) } });
    s = await usageState(t.prisma, user.id, at);
    assert.equal(s.session.startedAt, at - H);
    assert.equal(s.session.resetsAt, at - H + SESSION_WINDOW_MS);
    assert.equal(s.session.usedCents, 17);
    assert.equal(s.allowanceLeftCents, Math.min(50 - 17, 200 - 30, 500 - 41));
    // One millisecond before it ends it is open; at its end it is closed.
    assert.equal((await usageState(t.prisma, user.id, at - H + SESSION_WINDOW_MS - 1)).sessionOpen, true);
    assert.equal((await usageState(t.prisma, user.id, at - H + SESSION_WINDOW_MS)).sessionOpen, false);
    // Before the anchor: the first period.
    const early = await usageState(t.prisma, user.id, t0 - D);
    assert.equal(early.monthly.startedAt, t0);
    assert.equal(early.weekly.startedAt, t0);
    // Exactly at a period's boundary: the new period.
    assert.equal((await usageState(t.prisma, user.id, t0 + 7 * WEEK_MS)).weekly.startedAt, t0 + 7 * WEEK_MS);
    assert.equal((await usageState(t.prisma, user.id, t0 + 2 * MONTH_MS)).monthly.startedAt, t0 + 2 * MONTH_MS);
  });

  test("paid plan: Stripe's period while it lasts, weeks from the subscription's start; a plan not in force is free", async () => {
    const at = Date.UTC(2026, 10, 26, 12, 0, 0, 0);
    const { user, record } = await payer(t, at - 100 * D);
    const anchor = at - 10 * D - 5 * H;
    await t.prisma.billingAccount.create({ data: { userId: user.id, createdAt: new Date(at - 95 * D) } });
    await t.prisma.subscription.create({ data: { userId: user.id, tier: "pro", status: "active", windowAnchorAt: new Date(anchor), currentPeriodStart: new Date(at - 3 * D), currentPeriodEnd: new Date(at + 27 * D) } });
    await record(at - 4 * D, 100); // before the period, in the week (week 2 starts at anchor + 7 d = at - 3 d - 5 h)
    await record(at - 3 * D - 6 * H, 50); // before both
    await record(at - 2 * D, 20); // both
    let s = await usageState(t.prisma, user.id, at);
    assert.equal(s.tier, "pro");
    assert.equal(s.monthly.startedAt, at - 3 * D);
    assert.equal(s.monthly.resetsAt, at + 27 * D);
    assert.equal(s.weekly.startedAt, anchor + WEEK_MS);
    assert.equal(s.monthly.usedCents, 20);
    assert.equal(s.weekly.usedCents, 20);
    assert.equal(s.monthly.limitCents, 2000);
    // Stripe's period over (no renewal seen yet): 30-day periods from the subscription's start.
    s = await usageState(t.prisma, user.id, at + 28 * D);
    assert.equal(s.monthly.startedAt, anchor + MONTH_MS);
    // Cancelled: the free plan, anchored at the account's start.
    await t.prisma.subscription.update({ where: { userId: user.id }, data: { status: "canceled" } });
    s = await usageState(t.prisma, user.id, at);
    assert.equal(s.tier, "free");
    assert.equal(s.monthly.startedAt, at - 95 * D + 3 * MONTH_MS); // at - 5 d
    assert.equal(s.weekly.startedAt, at - 95 * D + 13 * WEEK_MS); // at - 4 d: its first record is in it
    assert.equal(s.monthly.usedCents, 100 + 50 + 20);
    assert.equal(s.weekly.usedCents, 100 + 50 + 20);
  });
});

/**
 * 64 turns charged at once to one team pool (two members, the owner pays), 8 of them a second
 * charge of the same reply: each reply charged once; the free plan's session window (50 cents)
 * first, then the owner's credit to exactly zero, the rest counted on the window (never cut).
 */
async function sixtyFourTurns(rt: TestRuntime) {
  rt.runtime.config.billingEnabled = true;
  const [owner, a, b] = [await createTestUser(rt.prisma), await createTestUser(rt.prisma), await createTestUser(rt.prisma)];
  const team = await rt.prisma.team.create({ data: { ownerId: owner.id, name: "Pool", members: { create: [{ userId: owner.id, role: "owner", via: "owner" }, { userId: a.id }, { userId: b.id }] } } });
  const project = await rt.prisma.project.create({ data: { ownerId: owner.id, name: "Shared" } });
  await setAllowExtraSpend(owner.id, true);
  await postTransaction(owner.id, { amountCents: 1000, kind: "grant" });
  const turns = Array.from({ length: 64 }, (_, i) => {
    const n = i < 56 ? i : i - 56; // the last 8 charge replies 0–7 again
    return { userId: n % 2 ? b.id : a.id, projectId: project.id, todoId: `todo-${owner.id}-${n}`, messageId: `msg-${owner.id}-${n}`, costCents: 25, tokensIn: 1, tokensOut: 1 };
  });
  const paid = await Promise.all(turns.map((c) => rt.prisma.$transaction((tx) => chargeTurn(tx, c), { maxWait: 30_000, timeout: 30_000 })));
  assert.equal(paid.filter((p) => p === null).length, 8, "a reply is charged once");
  const charged = paid.filter((p) => p !== null);
  assert.equal(charged.reduce((n, p) => n + p.creditCents, 0), 1000, "credit to exactly zero");
  assert.equal(charged.reduce((n, p) => n + p.allowanceCents, 0), 56 * 25 - 1000);
  assert.equal((await balanceOf(owner.id)).balanceCents, 0);
  assert.equal(await ledgerSum(owner.id), 0, "the ledger sums to the balance");
  const rows = await rt.prisma.ledgerTransaction.findMany({ where: { userId: owner.id } });
  assert.equal(rows.length, 41, "the grant and 40 charges of 25");
  assert.ok(rows.every((r) => r.balanceAfterCents >= 0), "no row leaves the balance below zero");
  assert.equal(new Set(rows.map((r) => r.balanceAfterCents)).size, 41, "no two charges saw the same balance");
  assert.ok(rows.filter((r) => r.kind === "usage_charge").every((r) => r.teamId === team.id && r.amountCents === -25));
  const records = await rt.prisma.usageRecord.findMany({ where: { payerId: owner.id } });
  assert.equal(records.length, 56);
  assert.ok(records.every((r) => r.teamId === team.id && r.allowanceCents + r.creditCents === 25));
  assert.equal(records.reduce((n, r) => n + r.creditCents, 0), 1000);
  // The session window opened once, by the first charge: every record is in it.
  const state = await usageState(rt.prisma, a.id);
  assert.equal(state.payerId, owner.id);
  assert.ok(state.sessionOpen);
  assert.equal(state.session.usedCents, 56 * 25 - 1000);
  assert.ok(records.every((r) => r.createdAt.getTime() >= state.session.startedAt!));
  assert.equal(state.balanceCents, 0);
}

describe("charging turns", () => {
  test("64 concurrent charges to one team pool (embedded database)", async () => {
    await sixtyFourTurns(t);
  });
});

// PGlite is one connection; on a PostgreSQL server the 64 transactions really overlap.
describe("charging turns on a PostgreSQL server (overlapping transactions)", () => {
  const pg = withPostgresRuntime(before, after);
  test("64 concurrent charges to one team pool never overdraw, never lose a cent, charge each reply once", async (ctx) => {
    const rt = pg.get();
    if (!rt) return ctx.skip(pg.reason());
    await sixtyFourTurns(rt);
  });
});
