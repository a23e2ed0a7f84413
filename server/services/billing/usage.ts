// Plans' usage windows and the charge of each agent turn. A turn's cost goes first against the
// plan's allowance (limited by three windows: the monthly period, the anchored session window of
// SESSION_WINDOW_MS opened by the first use after the last one ended, and the weekly window anchored
// at the subscription's start), then, with extra spend on, against manual credit. A turn that has
// started always finishes and is charged once (its message id is unique in UsageRecord); the next
// turn is refused with 402 while a window is exhausted and extra spend is off (or no credit is left).
import type { TUsageStatus } from "../../../lib/schemas/billing.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { ApiError } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { ensureAccount, lockBilling, post, TX_OPTIONS } from "./ledger.ts";
import { MONTH_MS, planOf, SESSION_WINDOW_MS, WEEK_MS, type Plan, type Tier } from "./plans.ts";

type Tx = Prisma.TransactionClient | ReturnType<typeof db>;
type WindowName = "session" | "weekly" | "monthly";
type Window = { limitCents: number; usedCents: number; remainingCents: number; startedAt: number | null; resetsAt: number | null };

export type UsageState = {
  tier: Tier;
  plan: Plan;
  balanceCents: number;
  currency: string;
  allowExtraSpend: boolean;
  session: Window;
  weekly: Window;
  monthly: Window;
  /** What the allowance can still cover: the least of the three windows. */
  allowanceLeftCents: number;
  /** The first exhausted window, or null. */
  exhausted: WindowName | null;
  sessionOpen: boolean;
};

/** Whether a subscription row gives its tier now. */
export function activeTier(sub: { tier: string; status: string } | null): Tier {
  if (!sub) return "free";
  return ["active", "trialing", "past_due"].includes(sub.status) ? planOf(sub.tier).tier : "free";
}

/** Start of the period of length `len` anchored at `anchor` that holds `at`. */
function periodStart(anchor: number, len: number, at: number): number {
  if (at < anchor) return anchor;
  return anchor + Math.floor((at - anchor) / len) * len;
}

/** The allowance used since each window's start, in one pass over the user's records of the widest window. */
async function allowanceUsed(tx: Tx, userId: string, monthStart: number, weekStart: number, sessionStart: number | null) {
  const month = new Date(monthStart);
  const week = new Date(weekStart);
  // No session window open: a start no record reaches (its sum is not used).
  const session = new Date(sessionStart ?? Date.UTC(9999, 11, 31));
  const since = new Date(Math.min(monthStart, weekStart, sessionStart ?? Infinity));
  const [row] = await tx.$queryRaw<{ m: bigint | number | null; w: bigint | number | null; s: bigint | number | null }[]>`
    SELECT COALESCE(SUM("allowanceCents") FILTER (WHERE "createdAt" >= ${month}), 0) AS m,
           COALESCE(SUM("allowanceCents") FILTER (WHERE "createdAt" >= ${week}), 0) AS w,
           COALESCE(SUM("allowanceCents") FILTER (WHERE "createdAt" >= ${session}), 0) AS s
    FROM "UsageRecord" WHERE "userId" = ${userId} AND "createdAt" >= ${since}`;
  return { monthUsed: Number(row?.m ?? 0), weekUsed: Number(row?.w ?? 0), sessionUsed: sessionStart === null ? 0 : Number(row?.s ?? 0) };
}

function windowOf(limit: number, used: number, startedAt: number | null, resetsAt: number | null): Window {
  return { limitCents: limit, usedCents: used, remainingCents: Math.max(0, limit - used), startedAt, resetsAt };
}

/** The user's plan, balance and windows at `at` (reads only; call under the user's lock to act on it). */
export async function usageState(tx: Tx, userId: string, at = Date.now()): Promise<UsageState> {
  const [account, sub, user] = await Promise.all([
    tx.billingAccount.findUnique({ where: { userId } }),
    tx.subscription.findUnique({ where: { userId } }),
    tx.user.findUnique({ where: { id: userId }, select: { createdAt: true } }),
  ]);
  const tier = activeTier(sub);
  const plan = planOf(tier);
  const anchor = (tier !== "free" && sub ? sub.windowAnchorAt : (account?.createdAt ?? user?.createdAt ?? new Date(at))).getTime();
  // Monthly: Stripe's period for a paid plan, else 30-day periods from the anchor.
  let monthStart: number;
  let monthEnd: number;
  if (tier !== "free" && sub?.currentPeriodStart && sub.currentPeriodEnd && sub.currentPeriodEnd.getTime() > at) {
    monthStart = sub.currentPeriodStart.getTime();
    monthEnd = sub.currentPeriodEnd.getTime();
  } else {
    monthStart = periodStart(anchor, MONTH_MS, at);
    monthEnd = monthStart + MONTH_MS;
  }
  const weekStart = periodStart(anchor, WEEK_MS, at);
  const sessionStart = account?.sessionWindowStart?.getTime() ?? null;
  const sessionOpen = sessionStart !== null && at < sessionStart + SESSION_WINDOW_MS;
  const { monthUsed, weekUsed, sessionUsed } = await allowanceUsed(tx, userId, monthStart, weekStart, sessionOpen ? sessionStart : null);
  const monthly = windowOf(plan.monthlyAllowanceCents, monthUsed, monthStart, monthEnd);
  const weekly = windowOf(plan.weeklyAllowanceCents, weekUsed, weekStart, weekStart + WEEK_MS);
  const session = windowOf(plan.sessionAllowanceCents, sessionUsed, sessionOpen ? sessionStart : null, sessionOpen ? sessionStart! + SESSION_WINDOW_MS : null);
  const exhausted: WindowName | null = session.remainingCents <= 0 ? "session" : weekly.remainingCents <= 0 ? "weekly" : monthly.remainingCents <= 0 ? "monthly" : null;
  return {
    tier,
    plan,
    balanceCents: account?.balanceCents ?? 0,
    currency: account?.currency ?? plan.currency,
    allowExtraSpend: account?.allowExtraSpend ?? false,
    session,
    weekly,
    monthly,
    allowanceLeftCents: Math.min(session.remainingCents, weekly.remainingCents, monthly.remainingCents),
    exhausted,
    sessionOpen,
  };
}

/** Whether a new turn may start: allowance left, or extra spend on with credit left. */
export function turnAllowed(s: UsageState): boolean {
  return s.allowanceLeftCents > 0 || (s.allowExtraSpend && s.balanceCents > 0);
}

export function toUsageStatus(s: UsageState): TUsageStatus {
  const allowed = turnAllowed(s);
  return {
    tier: s.tier,
    balanceCents: s.balanceCents,
    currency: s.currency,
    allowExtraSpend: s.allowExtraSpend,
    monthly: s.monthly,
    session: s.session,
    weekly: s.weekly,
    canStartTurn: allowed,
    blockedBy: allowed ? null : s.exhausted,
  };
}

export async function getUsageStatus(userId: string): Promise<TUsageStatus> {
  return toUsageStatus(await usageState(db(), userId));
}

/**
 * The lifecycle's check before a todo moves into RUNNING (inside its transaction): 402
 * PAYMENT_REQUIRED naming the exhausted window and when it resets, and what would let the turn run.
 */
export async function assertCanStartTurn(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  if (!runtime().config.billingEnabled) return;
  const s = await usageState(tx, userId);
  if (turnAllowed(s)) return;
  const window = s.exhausted ?? "monthly";
  const resetsAt = s[window].resetsAt;
  const when = resetsAt ? new Date(resetsAt).toISOString() : "later";
  const how = s.allowExtraSpend ? "add credit" : "turn on extra spend and add credit";
  throw new ApiError("PAYMENT_REQUIRED", `The ${window} usage window of the ${s.plan.name} plan is used up until ${when}: ${how}, or change plan, to go on now`, {
    window,
    resetsAt,
    tier: s.tier,
    balanceCents: s.balanceCents,
    allowExtraSpend: s.allowExtraSpend,
  });
}

export type TurnCharge = { userId: string; projectId: string; todoId: string; messageId: string; costCents: number; tokensIn: number; tokensOut: number };

/**
 * Charges one finished turn inside the caller's transaction (the one that marks its reply DONE):
 * the allowance first, then credit when extra spend is on (never below zero). What neither covers
 * (a turn that ran past its window) is counted against the allowance: a started turn is never cut.
 * Once per message id.
 */
export async function chargeTurn(tx: Prisma.TransactionClient, c: TurnCharge): Promise<{ allowanceCents: number; creditCents: number } | null> {
  if (!runtime().config.billingEnabled) return null;
  const cost = Math.max(0, Math.round(c.costCents));
  await lockBilling(tx, c.userId);
  if (await tx.usageRecord.findUnique({ where: { messageId: c.messageId }, select: { id: true } })) return null;
  const account = await ensureAccount(tx, c.userId);
  const at = Date.now();
  const s = await usageState(tx, c.userId, at);
  const fromAllowance = Math.min(cost, s.allowanceLeftCents);
  let fromCredit = 0;
  if (cost > fromAllowance && account.allowExtraSpend) fromCredit = Math.min(cost - fromAllowance, account.balanceCents);
  if (fromCredit > 0) await post(tx, c.userId, { amountCents: -fromCredit, kind: "usage_charge", description: "Agent turn", reference: `turn:${c.messageId}` });
  if (!s.sessionOpen) await tx.billingAccount.update({ where: { userId: c.userId }, data: { sessionWindowStart: new Date(at) } });
  const allowanceCents = cost - fromCredit;
  await tx.usageRecord.create({
    data: { userId: c.userId, projectId: c.projectId, todoId: c.todoId, messageId: c.messageId, costCents: cost, allowanceCents, creditCents: fromCredit, tokensIn: Math.max(0, Math.round(c.tokensIn)), tokensOut: Math.max(0, Math.round(c.tokensOut)), currency: account.currency, createdAt: new Date(at) },
  });
  return { allowanceCents, creditCents: fromCredit };
}

export async function setAllowExtraSpend(userId: string, allow: boolean): Promise<void> {
  await db().$transaction(async (tx) => {
    await lockBilling(tx, userId);
    await ensureAccount(tx, userId);
    await tx.billingAccount.update({ where: { userId }, data: { allowExtraSpend: allow } });
  }, TX_OPTIONS);
}

/** Usage in [from, to): totals, per UTC day and per project. */
/** A usage query's `[from, to)` in ms (CONVENTIONS.md "Date ranges": default the last 30 days), at most 366 days; 400 otherwise. */
export function usageRange(range: { from?: string; to?: string }): { from: number; to: number } {
  const to = range.to ? Date.parse(range.to) : Date.now();
  const from = range.from ? Date.parse(range.from) : to - 30 * 24 * 60 * 60 * 1000;
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new ApiError("BAD_REQUEST", "from and to must be ISO 8601 dates", { issues: [{ path: "from", message: "must be an ISO 8601 date" }] });
  if (from > to) throw new ApiError("BAD_REQUEST", "from must not be after to", { issues: [{ path: "from", message: "must not be after to" }] });
  if (to - from > 366 * 24 * 60 * 60 * 1000) throw new ApiError("BAD_REQUEST", "The range may span at most 366 days", { issues: [{ path: "from", message: "the range may span at most 366 days" }] });
  return { from, to };
}

export async function getUsage(userId: string, range: { from?: string; to?: string }) {
  const { from, to } = usageRange(range);
  const rows = await db().usageRecord.findMany({ where: { userId, createdAt: { gte: new Date(from), lt: new Date(to) } }, select: { projectId: true, costCents: true, tokensIn: true, tokensOut: true, createdAt: true, currency: true } });
  const zero = () => ({ turns: 0, tokensIn: 0, tokensOut: 0, costCents: 0 });
  const add = (t: ReturnType<typeof zero>, r: (typeof rows)[number]) => {
    t.turns++;
    t.tokensIn += r.tokensIn;
    t.tokensOut += r.tokensOut;
    t.costCents += r.costCents;
  };
  const totals = zero();
  const days = new Map<string, ReturnType<typeof zero>>();
  const projects = new Map<string, ReturnType<typeof zero>>();
  for (const r of rows) {
    add(totals, r);
    const day = r.createdAt.toISOString().slice(0, 10);
    add(days.get(day) ?? days.set(day, zero()).get(day)!, r);
    add(projects.get(r.projectId) ?? projects.set(r.projectId, zero()).get(r.projectId)!, r);
  }
  const names = new Map((await db().project.findMany({ where: { id: { in: [...projects.keys()] } }, select: { id: true, name: true } })).map((p) => [p.id, p.name]));
  return {
    from,
    to,
    currency: rows[0]?.currency ?? "usd",
    totals,
    days: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, t]) => ({ date, ...t })),
    projects: [...projects.entries()].sort(([, a], [, b]) => b.costCents - a.costCents).map(([projectId, t]) => ({ projectId, name: names.get(projectId) ?? null, ...t })),
  };
}
