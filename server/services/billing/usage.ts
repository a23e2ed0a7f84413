// Plans' usage windows and the charge of each agent turn. A turn's cost goes first against the
// plan's allowance (limited by three windows: the monthly period, the anchored session window of
// SESSION_WINDOW_MS opened by the first use after the last one ended, and the weekly window anchored
// at the subscription's start), then, with extra spend on, against manual credit. A turn that has
// started always finishes and is charged once (its message id is unique in UsageRecord); the next
// turn is refused with 402 while a window is exhausted and extra spend is off (or no credit is left).
import type { TUsageStatus } from "../../../lib/schemas/billing.ts";
import { Prisma } from "../../db/generated/client.ts";
import { ApiError } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { ensureAccount, lockBilling, post, TX_OPTIONS } from "./ledger.ts";
import { CURRENCY, MONTH_MS, planOf, SESSION_WINDOW_MS, WEEK_MS, type Plan, type Tier } from "./plans.ts";

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

/** Start of the period of length `len` anchored at `anchor` that holds `at`. */
function periodStart(anchor: number, len: number, at: number): number {
  if (at < anchor) return anchor;
  return anchor + Math.floor((at - anchor) / len) * len;
}

/**
 * What the windows of one billing account are computed from, read in one statement: whose account
 * pays for `userId`'s turns (the owner of the user's team, the team's shared spend pool, else the
 * user), that account and its subscription. With `lock`, the payer's user row is locked (FOR
 * UPDATE, the ledger's lock): every change of that balance and those windows goes one at a time.
 */
type PayerRow = {
  payerId: string;
  teamId: string | null;
  userCreatedAt: Date;
  accountCreatedAt: Date | null;
  balanceCents: number | null;
  currency: string | null;
  allowExtraSpend: boolean | null;
  sessionWindowStart: Date | null;
  subTier: string | null;
  subStatus: string | null;
  windowAnchorAt: Date | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
};

async function readPayer(tx: Tx, userId: string, lock: boolean): Promise<PayerRow | null> {
  const rows = await tx.$queryRaw<PayerRow[]>`
    SELECT p."id" AS "payerId", t."id" AS "teamId", p."createdAt" AS "userCreatedAt",
           a."createdAt" AS "accountCreatedAt", a."balanceCents", a."currency", a."allowExtraSpend", a."sessionWindowStart",
           s."tier" AS "subTier", s."status" AS "subStatus", s."windowAnchorAt", s."currentPeriodStart", s."currentPeriodEnd"
    FROM "User" me
    LEFT JOIN "TeamMember" m ON m."userId" = me."id"
    LEFT JOIN "Team" t ON t."id" = m."teamId"
    JOIN "User" p ON p."id" = COALESCE(t."ownerId", me."id")
    LEFT JOIN "BillingAccount" a ON a."userId" = p."id"
    LEFT JOIN "Subscription" s ON s."userId" = p."id"
    WHERE me."id" = ${userId}
    ${lock ? Prisma.sql`FOR UPDATE OF p` : Prisma.empty}`;
  return rows[0] ?? null;
}

/** The windows' starts at `at` for a payer's row. */
function windowsOf(row: PayerRow, at: number) {
  const tier = activeTier(row.subTier && row.subStatus ? { tier: row.subTier, status: row.subStatus } : null);
  const plan = planOf(tier);
  const anchor = (tier !== "free" && row.windowAnchorAt ? row.windowAnchorAt : (row.accountCreatedAt ?? row.userCreatedAt)).getTime();
  // Monthly: Stripe's period for a paid plan, else 30-day periods from the anchor.
  let monthStart: number;
  let monthEnd: number;
  if (tier !== "free" && row.currentPeriodStart && row.currentPeriodEnd && row.currentPeriodEnd.getTime() > at) {
    monthStart = row.currentPeriodStart.getTime();
    monthEnd = row.currentPeriodEnd.getTime();
  } else {
    monthStart = periodStart(anchor, MONTH_MS, at);
    monthEnd = monthStart + MONTH_MS;
  }
  const weekStart = periodStart(anchor, WEEK_MS, at);
  const sessionStart = row.sessionWindowStart?.getTime() ?? null;
  const sessionOpen = sessionStart !== null && at < sessionStart + SESSION_WINDOW_MS;
  return { tier, plan, monthStart, monthEnd, weekStart, sessionStart: sessionOpen ? sessionStart : null };
}

/**
 * The allowance the payer's account used since each window's start, in one pass over its records
 * of the widest window; with `messageId`, whether that reply was charged already.
 */
async function allowanceUsed(tx: Tx, payerId: string, w: ReturnType<typeof windowsOf>, messageId?: string) {
  const month = new Date(w.monthStart);
  const week = new Date(w.weekStart);
  // No session window open: a start no record reaches (its sum is not used).
  const session = new Date(w.sessionStart ?? Date.UTC(9999, 11, 31));
  const since = new Date(Math.min(w.monthStart, w.weekStart, w.sessionStart ?? Infinity));
  const [row] = await tx.$queryRaw<{ m: bigint | number | null; w: bigint | number | null; s: bigint | number | null; charged: boolean }[]>`
    SELECT COALESCE(SUM("allowanceCents") FILTER (WHERE "createdAt" >= ${month}), 0) AS m,
           COALESCE(SUM("allowanceCents") FILTER (WHERE "createdAt" >= ${week}), 0) AS w,
           COALESCE(SUM("allowanceCents") FILTER (WHERE "createdAt" >= ${session}), 0) AS s,
           ${messageId === undefined ? Prisma.sql`false` : Prisma.sql`EXISTS (SELECT 1 FROM "UsageRecord" WHERE "messageId" = ${messageId})`} AS charged
    FROM "UsageRecord" WHERE "payerId" = ${payerId} AND "createdAt" >= ${since}`;
  return { monthUsed: Number(row?.m ?? 0), weekUsed: Number(row?.w ?? 0), sessionUsed: w.sessionStart === null ? 0 : Number(row?.s ?? 0), charged: row?.charged === true };
}

function windowOf(limit: number, used: number, startedAt: number | null, resetsAt: number | null): Window {
  return { limitCents: limit, usedCents: used, remainingCents: Math.max(0, limit - used), startedAt, resetsAt };
}

function stateOf(row: PayerRow, w: ReturnType<typeof windowsOf>, used: Awaited<ReturnType<typeof allowanceUsed>>): UsageState {
  const { plan } = w;
  const monthly = windowOf(plan.monthlyAllowanceCents, used.monthUsed, w.monthStart, w.monthEnd);
  const weekly = windowOf(plan.weeklyAllowanceCents, used.weekUsed, w.weekStart, w.weekStart + WEEK_MS);
  const session = windowOf(plan.sessionAllowanceCents, used.sessionUsed, w.sessionStart, w.sessionStart === null ? null : w.sessionStart + SESSION_WINDOW_MS);
  const exhausted: WindowName | null = session.remainingCents <= 0 ? "session" : weekly.remainingCents <= 0 ? "weekly" : monthly.remainingCents <= 0 ? "monthly" : null;
  return {
    payerId: row.payerId,
    teamId: row.teamId,
    tier: w.tier,
    plan,
    balanceCents: row.balanceCents ?? 0,
    currency: row.currency ?? plan.currency,
    allowExtraSpend: row.allowExtraSpend ?? false,
    session,
    weekly,
    monthly,
    allowanceLeftCents: Math.min(session.remainingCents, weekly.remainingCents, monthly.remainingCents),
    exhausted,
    sessionOpen: w.sessionStart !== null,
  };
}

/** The windows of the account that pays for `userId`'s turns, at `at` (reads only). Two statements. */
export async function usageState(tx: Tx, userId: string, at = Date.now()): Promise<UsageState> {
  const row = await readPayer(tx, userId, false);
  if (!row) throw new ApiError("NOT_FOUND", "User not found");
  const w = windowsOf(row, at);
  return stateOf(row, w, await allowanceUsed(tx, row.payerId, w));
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
 * message id. Three statements when the allowance covers it (lock and read, sums, record).
 */
export async function chargeTurn(tx: Prisma.TransactionClient, c: TurnCharge): Promise<{ allowanceCents: number; creditCents: number } | null> {
  if (!runtime().config.billingEnabled) return null;
  const cost = Math.max(0, Math.round(c.costCents));
  const row = await readPayer(tx, c.userId, true);
  if (!row) throw new ApiError("NOT_FOUND", "User not found");
  const at = Date.now();
  const w = windowsOf(row, at);
  const used = await allowanceUsed(tx, row.payerId, w, c.messageId);
  if (used.charged) return null;
  const s = stateOf(row, w, used);
  const fromAllowance = Math.min(cost, s.allowanceLeftCents);
  let fromCredit = 0;
  if (cost > fromAllowance && s.allowExtraSpend) fromCredit = Math.min(cost - fromAllowance, s.balanceCents);
  if (fromCredit > 0) await post(tx, row.payerId, { amountCents: -fromCredit, kind: "usage_charge", description: "Agent turn", reference: `turn:${c.messageId}`, teamId: row.teamId });
  // The first charge after the last session window ended opens one (the payer's account made now if it has none).
  if (!s.sessionOpen)
    await tx.billingAccount.upsert({ where: { userId: row.payerId }, create: { userId: row.payerId, currency: CURRENCY, sessionWindowStart: new Date(at) }, update: { sessionWindowStart: new Date(at) } });
  const allowanceCents = cost - fromCredit;
  await tx.usageRecord.create({
    data: { userId: c.userId, payerId: row.payerId, teamId: row.teamId, projectId: c.projectId, todoId: c.todoId, messageId: c.messageId, costCents: cost, allowanceCents, creditCents: fromCredit, tokensIn: Math.max(0, Math.round(c.tokensIn)), tokensOut: Math.max(0, Math.round(c.tokensOut)), currency: s.currency, createdAt: new Date(at) },
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
