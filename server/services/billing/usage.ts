// Plans' usage windows and the charge of each agent turn. A turn's cost goes first against the
// plan's allowance (limited by three windows: the monthly period, the anchored session window of
// SESSION_WINDOW_MS opened by the first use after the last one ended, and the weekly window anchored
// at the subscription's start), then, with extra spend on, against manual credit. A turn that has
// started always finishes and is charged once (its message id is unique in UsageRecord); the next
// turn is refused with 402 while a window is exhausted and extra spend is off (or no credit is left).
// The windows, their sums and the charge are computed in the database, by the PL/pgSQL functions of
// prisma/migrations/20261126094500_billing_turn_functions (one statement per start check and per
// charge, their inner plans kept per connection), with the rules of plans.ts sent as `RULES`.
import type { TUsageStatus } from "../../../lib/schemas/billing.ts";
import { Prisma } from "../../db/generated/client.ts";
import { newRowId } from "../../db/ids.ts";
import { ApiError } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { ensureAccount, lockBilling, TX_OPTIONS } from "./ledger.ts";
import { CURRENCY, MONTH_MS, planOf, PLANS, SESSION_WINDOW_MS, TIERS, WEEK_MS, type Plan, type Tier } from "./plans.ts";

type Tx = Prisma.TransactionClient | ReturnType<typeof db>;
type WindowName = "session" | "weekly" | "monthly";
type Window = { limitCents: number; usedCents: number; remainingCents: number; startedAt: number | null; resetsAt: number | null };

export type UsageState = {
  /** Whose billing account it is: the user's, or their team owner's (the shared pool). */
  payerId: string;
  /** The team whose shared pool pays the user's turns, or null. */
  teamId: string | null;
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

/**
 * The rules the database functions apply (prisma/migrations/…_billing_turn_functions): which
 * subscriptions give a paid tier, the windows' lengths and each plan's allowances per window, from
 * the catalog in plans.ts (their one source), sent with every call.
 */
const RULES = JSON.stringify({
  paidTiers: TIERS.filter((t) => t !== "free"),
  activeStatuses: ["active", "trialing", "past_due"],
  monthMs: MONTH_MS,
  weekMs: WEEK_MS,
  sessionMs: SESSION_WINDOW_MS,
  currency: CURRENCY,
  limits: Object.fromEntries(TIERS.map((t) => [t, [PLANS[t].sessionAllowanceCents, PLANS[t].weeklyAllowanceCents, PLANS[t].monthlyAllowanceCents]])),
});

type Num = bigint | number;
/** One row of billing_usage_state / billing_payer_state. */
type StateRow = {
  o_payer: string;
  o_team: string | null;
  o_balance: number;
  o_currency: string;
  o_allow_extra: boolean;
  o_tier: string;
  o_month_start: Num;
  o_month_end: Num;
  o_week_start: Num;
  o_session_start: Num | null;
  o_month_used: number;
  o_week_used: number;
  o_session_used: number;
};

function windowOf(limit: number, used: number, startedAt: number | null, resetsAt: number | null): Window {
  return { limitCents: limit, usedCents: used, remainingCents: Math.max(0, limit - used), startedAt, resetsAt };
}

function stateOf(row: StateRow): UsageState {
  const plan = planOf(row.o_tier);
  const monthStart = Number(row.o_month_start);
  const weekStart = Number(row.o_week_start);
  const sessionStart = row.o_session_start === null ? null : Number(row.o_session_start);
  const monthly = windowOf(plan.monthlyAllowanceCents, Number(row.o_month_used), monthStart, Number(row.o_month_end));
  const weekly = windowOf(plan.weeklyAllowanceCents, Number(row.o_week_used), weekStart, weekStart + WEEK_MS);
  const session = windowOf(plan.sessionAllowanceCents, Number(row.o_session_used), sessionStart, sessionStart === null ? null : sessionStart + SESSION_WINDOW_MS);
  const exhausted: WindowName | null = session.remainingCents <= 0 ? "session" : weekly.remainingCents <= 0 ? "weekly" : monthly.remainingCents <= 0 ? "monthly" : null;
  return {
    payerId: row.o_payer,
    teamId: row.o_team,
    tier: plan.tier,
    plan,
    balanceCents: Number(row.o_balance),
    currency: row.o_currency,
    allowExtraSpend: row.o_allow_extra,
    session,
    weekly,
    monthly,
    allowanceLeftCents: Math.min(session.remainingCents, weekly.remainingCents, monthly.remainingCents),
    exhausted,
    sessionOpen: sessionStart !== null,
  };
}

/** The windows of the account that pays for `userId`'s turns, at `at` (reads only). One statement. */
export async function usageState(tx: Tx, userId: string, at = Date.now()): Promise<UsageState> {
  const [row] = await tx.$queryRaw<StateRow[]>`SELECT * FROM billing_usage_state(${userId}, ${at}::bigint, ${RULES}::jsonb)`;
  if (!row) throw new ApiError("NOT_FOUND", "User not found");
  return stateOf(row);
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
    teamPool: s.teamId ? { teamId: s.teamId, ownerId: s.payerId } : null,
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
  const whose = s.teamId ? "your team's" : "the";
  const how = s.teamId ? "ask the team's owner to add credit or change plan" : s.allowExtraSpend ? "add credit, or change plan," : "turn on extra spend and add credit, or change plan,";
  throw new ApiError("PAYMENT_REQUIRED", `The ${window} usage window of ${whose} ${s.plan.name} plan is used up until ${when}: ${how} to go on now`, {
    window,
    resetsAt,
    tier: s.tier,
    balanceCents: s.balanceCents,
    allowExtraSpend: s.allowExtraSpend,
    teamId: s.teamId,
  });
}

export type TurnCharge = { userId: string; projectId: string; todoId: string; messageId: string; costCents: number; tokensIn: number; tokensOut: number };

/**
 * Charges one finished turn inside the caller's transaction (the one that marks its reply DONE) to
 * the account that pays for the user's turns (their team's pool, else their own): the allowance
 * first, then credit when extra spend is on (never below zero). What neither covers (a turn that
 * ran past its window) is counted against the allowance: a started turn is never cut. Once per
 * message id. One statement: billing_charge_turn locks the payer's user row (the ledger's lock,
 * so charges of one payer go one at a time), then, seeing every charge committed before, computes
 * the windows and the split and writes the UsageRecord, the ledger row and the balance when credit
 * pays, and the session window when none is open.
 */
export async function chargeTurn(tx: Prisma.TransactionClient, c: TurnCharge): Promise<{ allowanceCents: number; creditCents: number } | null> {
  if (!runtime().config.billingEnabled) return null;
  const cost = Math.max(0, Math.round(c.costCents));
  const [row] = await tx.$queryRaw<{ o_charged: boolean; o_allowance: number; o_credit: number }[]>`
    SELECT * FROM billing_charge_turn(${c.userId}, ${c.projectId}, ${c.todoId}, ${c.messageId}, ${cost}::int,
      ${Math.max(0, Math.round(c.tokensIn))}::int, ${Math.max(0, Math.round(c.tokensOut))}::int, ${Date.now()}::bigint, ${newRowId()}, ${newRowId()}, ${RULES}::jsonb)`;
  if (!row) throw new ApiError("NOT_FOUND", "User not found");
  if (row.o_charged) return null;
  return { allowanceCents: Number(row.o_allowance), creditCents: Number(row.o_credit) };
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
  // Issue paths name the query parameter, as the pipeline's own validation does (docs/api.md "Requests").
  const notDates = [...(Number.isFinite(from) ? [] : ["query.from"]), ...(Number.isFinite(to) ? [] : ["query.to"])];
  if (notDates.length) throw new ApiError("BAD_REQUEST", "from and to must be ISO 8601 dates", { issues: notDates.map((path) => ({ path, message: "must be an ISO 8601 date", code: "invalid_format" })) });
  if (from > to) throw new ApiError("BAD_REQUEST", "from must not be after to", { issues: [{ path: "query.from", message: "must not be after to", code: "custom" }] });
  if (to - from > 366 * 24 * 60 * 60 * 1000) throw new ApiError("BAD_REQUEST", "The range may span at most 366 days", { issues: [{ path: "query.from", message: "the range may span at most 366 days", code: "custom" }] });
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
