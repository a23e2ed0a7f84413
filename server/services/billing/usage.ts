// Plans' usage windows and the charge of each agent turn. A turn's cost goes first against the
// plan's allowance (limited by three windows: the monthly period, the anchored session window of
// SESSION_WINDOW_MS opened by the first use after the last one ended, and the weekly window anchored
// at the subscription's start), then, with extra spend on, against manual credit. A turn that has
// started always finishes and is charged once (its message id is unique in UsageRecord); the next
// turn is refused with 402 while a window is exhausted and extra spend is off (or no credit is left).
import { randomBytes } from "node:crypto";
import type { TUsageStatus } from "../../../lib/schemas/billing.ts";
import { Prisma } from "../../db/generated/client.ts";
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

/** Paid tiers a subscription can give (anything else, or a subscription not in force, is free). */
const PAID_TIERS = Prisma.join(TIERS.filter((t) => t !== "free").map((t) => Prisma.sql`${t}`));
const ACTIVE_STATUSES = Prisma.join(["active", "trialing", "past_due"].map((st) => Prisma.sql`${st}`));
/** A plan's allowance for one window, by tier, in SQL (the catalog in plans.ts is the one source). */
const limitSql = (tier: Prisma.Sql, field: "sessionAllowanceCents" | "weeklyAllowanceCents" | "monthlyAllowanceCents") =>
  Prisma.sql`(CASE ${tier} ${Prisma.join(TIERS.map((t) => Prisma.sql`WHEN ${t} THEN ${PLANS[t][field]}::int`), " ")} END)`;
/** A timestamp(3) as integer milliseconds since the epoch, and back. */
const msOf = (ts: Prisma.Sql) => Prisma.sql`(EXTRACT(EPOCH FROM ${ts}) * 1000)::bigint`;
const tsOf = (ms: Prisma.Sql) => Prisma.sql`(TIMESTAMP 'epoch' + ${ms} * INTERVAL '1 millisecond')`;
/** Start of the period of length `len` ms anchored at `anchor` that holds `at` (the anchor itself before it). */
const periodStartSql = (anchor: Prisma.Sql, len: number, at: Prisma.Sql) => Prisma.sql`(CASE WHEN ${at} < ${anchor} THEN ${anchor} ELSE ${anchor} + ((${at} - ${anchor}) / ${len}::bigint) * ${len}::bigint END)`;

/** Whose account pays for a user's turns: the owner of the user's team (the team's shared spend pool), else the user. */
const payerOfUser = (userId: string) => Prisma.sql`
    SELECT p."id" AS "payerId", t."id" AS "teamId", p."createdAt" AS "userCreatedAt"
    FROM "User" me
    LEFT JOIN "TeamMember" m ON m."userId" = me."id"
    LEFT JOIN "Team" t ON t."id" = m."teamId"
    JOIN "User" p ON p."id" = COALESCE(t."ownerId", me."id")
    WHERE me."id" = ${userId}`;

/**
 * The state of a payer's windows at `at` as one SELECT (no lock): the payer (`payer`, a SELECT of
 * payerId, teamId, userCreatedAt), its account and subscription, the tier, the windows' starts
 * (computed here from that row, as described in the header) and the allowance used in each, summed
 * in one pass over the payer's records of the widest window through UsageRecord(payerId, createdAt);
 * with `messageId`, whether that reply was charged already. Times are integer milliseconds.
 */
function stateSql(payer: Prisma.Sql, at: number, messageId?: string): Prisma.Sql {
  const atMs = Prisma.sql`${at}::bigint`;
  return Prisma.sql`
    SELECT pr."payerId", pr."teamId", a."userId" IS NOT NULL AS "hasAccount",
           COALESCE(a."balanceCents", 0) AS "balanceCents", COALESCE(a."currency", ${CURRENCY}) AS "currency", COALESCE(a."allowExtraSpend", false) AS "allowExtraSpend",
           ti."tier", w."monthStart", w."monthEnd", w."weekStart", w."sessionStart",
           COALESCE(u."monthUsed", 0)::int AS "monthUsed", COALESCE(u."weekUsed", 0)::int AS "weekUsed",
           (CASE WHEN w."sessionStart" IS NULL THEN 0 ELSE COALESCE(u."sessionUsed", 0) END)::int AS "sessionUsed",
           ${messageId === undefined ? Prisma.sql`false` : Prisma.sql`EXISTS (SELECT 1 FROM "UsageRecord" c WHERE c."messageId" = ${messageId})`} AS "charged"
    FROM (${payer}) pr
    LEFT JOIN "BillingAccount" a ON a."userId" = pr."payerId"
    LEFT JOIN "Subscription" s ON s."userId" = pr."payerId"
    CROSS JOIN LATERAL (SELECT CASE WHEN s."status" IN (${ACTIVE_STATUSES}) AND s."tier" IN (${PAID_TIERS}) THEN s."tier" ELSE 'free' END AS "tier") ti
    -- The windows' anchor: the subscription's start for a paid plan, else when the account (or the user) was made.
    CROSS JOIN LATERAL (SELECT ${msOf(Prisma.sql`CASE WHEN ti."tier" <> 'free' AND s."windowAnchorAt" IS NOT NULL THEN s."windowAnchorAt" ELSE COALESCE(a."createdAt", pr."userCreatedAt") END`)} AS "anchor",
                               ti."tier" <> 'free' AND s."currentPeriodStart" IS NOT NULL AND s."currentPeriodEnd" IS NOT NULL AND ${msOf(Prisma.sql`s."currentPeriodEnd"`)} > ${atMs} AS "stripePeriod") an
    -- Monthly: Stripe's period for a paid plan, else 30-day periods from the anchor. Session: open until SESSION_WINDOW_MS after its start.
    CROSS JOIN LATERAL (SELECT
        CASE WHEN an."stripePeriod" THEN ${msOf(Prisma.sql`s."currentPeriodStart"`)} ELSE ${periodStartSql(Prisma.sql`an."anchor"`, MONTH_MS, atMs)} END AS "monthStart",
        CASE WHEN an."stripePeriod" THEN ${msOf(Prisma.sql`s."currentPeriodEnd"`)} ELSE ${periodStartSql(Prisma.sql`an."anchor"`, MONTH_MS, atMs)} + ${MONTH_MS}::bigint END AS "monthEnd",
        ${periodStartSql(Prisma.sql`an."anchor"`, WEEK_MS, atMs)} AS "weekStart",
        CASE WHEN a."sessionWindowStart" IS NOT NULL AND ${atMs} < ${msOf(Prisma.sql`a."sessionWindowStart"`)} + ${SESSION_WINDOW_MS}::bigint THEN ${msOf(Prisma.sql`a."sessionWindowStart"`)} END AS "sessionStart") w
    LEFT JOIN LATERAL (
      SELECT SUM(r."allowanceCents") FILTER (WHERE r."createdAt" >= ${tsOf(Prisma.sql`w."monthStart"`)}) AS "monthUsed",
             SUM(r."allowanceCents") FILTER (WHERE r."createdAt" >= ${tsOf(Prisma.sql`w."weekStart"`)}) AS "weekUsed",
             SUM(r."allowanceCents") FILTER (WHERE r."createdAt" >= ${tsOf(Prisma.sql`w."sessionStart"`)}) AS "sessionUsed"
      FROM "UsageRecord" r
      WHERE r."payerId" = pr."payerId" AND r."createdAt" >= ${tsOf(Prisma.sql`LEAST(w."monthStart", w."weekStart", COALESCE(w."sessionStart", w."monthStart"))`)}
    ) u ON true`;
}

type Num = bigint | number;
/** One row of `stateSql`. */
type StateRow = {
  payerId: string;
  teamId: string | null;
  hasAccount: boolean;
  balanceCents: number;
  currency: string;
  allowExtraSpend: boolean;
  tier: string;
  monthStart: Num;
  monthEnd: Num;
  weekStart: Num;
  sessionStart: Num | null;
  monthUsed: number;
  weekUsed: number;
  sessionUsed: number;
  charged: boolean;
};

function windowOf(limit: number, used: number, startedAt: number | null, resetsAt: number | null): Window {
  return { limitCents: limit, usedCents: used, remainingCents: Math.max(0, limit - used), startedAt, resetsAt };
}

function stateOf(row: StateRow): UsageState {
  const plan = planOf(row.tier);
  const monthStart = Number(row.monthStart);
  const weekStart = Number(row.weekStart);
  const sessionStart = row.sessionStart === null ? null : Number(row.sessionStart);
  const monthly = windowOf(plan.monthlyAllowanceCents, Number(row.monthUsed), monthStart, Number(row.monthEnd));
  const weekly = windowOf(plan.weeklyAllowanceCents, Number(row.weekUsed), weekStart, weekStart + WEEK_MS);
  const session = windowOf(plan.sessionAllowanceCents, Number(row.sessionUsed), sessionStart, sessionStart === null ? null : sessionStart + SESSION_WINDOW_MS);
  const exhausted: WindowName | null = session.remainingCents <= 0 ? "session" : weekly.remainingCents <= 0 ? "weekly" : monthly.remainingCents <= 0 ? "monthly" : null;
  return {
    payerId: row.payerId,
    teamId: row.teamId,
    tier: plan.tier,
    plan,
    balanceCents: Number(row.balanceCents),
    currency: row.currency,
    allowExtraSpend: row.allowExtraSpend,
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
  const [row] = await tx.$queryRaw<StateRow[]>(stateSql(payerOfUser(userId), at));
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

/** A new row id (the tables' ids are cuids made by the client; these rows are written in raw SQL). */
function newId(): string {
  return `c${Date.now().toString(36)}${randomBytes(10).toString("hex")}`;
}

/**
 * Charges one finished turn inside the caller's transaction (the one that marks its reply DONE) to
 * the account that pays for the user's turns (their team's pool, else their own): the allowance
 * first, then credit when extra spend is on (never below zero). What neither covers (a turn that
 * ran past its window) is counted against the allowance: a started turn is never cut. Once per
 * message id. Two statements:
 *
 * 1. the payer's user row locked (FOR UPDATE, the ledger's lock), so every change of that balance
 *    and those windows goes one at a time;
 * 2. one statement, whose snapshot is taken once the lock is held (so it sees every charge committed
 *    before): the windows and their sums (`stateSql`), the split between allowance and credit, the
 *    UsageRecord, the ledger row and the new balance when credit pays, and the session window opened
 *    when none is (the payer's account made now if it has none) — or nothing at all when the reply
 *    was charged already.
 */
export async function chargeTurn(tx: Prisma.TransactionClient, c: TurnCharge): Promise<{ allowanceCents: number; creditCents: number } | null> {
  if (!runtime().config.billingEnabled) return null;
  const cost = Math.max(0, Math.round(c.costCents));
  const [payer] = await tx.$queryRaw<{ payerId: string; teamId: string | null }[]>`${payerOfUser(c.userId)} FOR UPDATE OF p`;
  if (!payer) throw new ApiError("NOT_FOUND", "User not found");
  const at = Date.now();
  const atTs = tsOf(Prisma.sql`${at}::bigint`);
  const costSql = Prisma.sql`${cost}::int`;
  const st = stateSql(Prisma.sql`SELECT p."id" AS "payerId", ${payer.teamId}::text AS "teamId", p."createdAt" AS "userCreatedAt" FROM "User" p WHERE p."id" = ${payer.payerId}`, at, c.messageId);
  const tier = Prisma.sql`st."tier"`;
  const [row] = await tx.$queryRaw<{ charged: boolean; allowanceCents: number; creditCents: number }[]>`
    WITH st AS (${st}),
    x AS (
      SELECT st.*, LEAST(${costSql}, GREATEST(0, LEAST(${limitSql(tier, "sessionAllowanceCents")} - st."sessionUsed", ${limitSql(tier, "weeklyAllowanceCents")} - st."weekUsed", ${limitSql(tier, "monthlyAllowanceCents")} - st."monthUsed"))) AS "fromAllowance"
      FROM st
    ),
    y AS (
      SELECT x.*, (CASE WHEN x."allowExtraSpend" AND ${costSql} > x."fromAllowance" THEN GREATEST(0, LEAST(${costSql} - x."fromAllowance", x."balanceCents")) ELSE 0 END)::int AS "fromCredit"
      FROM x
    ),
    rec AS (
      INSERT INTO "UsageRecord" ("id", "userId", "payerId", "teamId", "projectId", "todoId", "messageId", "costCents", "allowanceCents", "creditCents", "tokensIn", "tokensOut", "currency", "createdAt")
      SELECT ${newId()}, ${c.userId}, y."payerId", y."teamId", ${c.projectId}, ${c.todoId}, ${c.messageId}, ${costSql}, ${costSql} - y."fromCredit", y."fromCredit",
             ${Math.max(0, Math.round(c.tokensIn))}::int, ${Math.max(0, Math.round(c.tokensOut))}::int, y."currency", ${atTs}
      FROM y WHERE NOT y."charged"
    ),
    led AS (
      INSERT INTO "LedgerTransaction" ("id", "userId", "teamId", "amountCents", "balanceAfterCents", "currency", "kind", "description", "reference", "createdAt")
      SELECT ${newId()}, y."payerId", y."teamId", -y."fromCredit", y."balanceCents" - y."fromCredit", y."currency", 'usage_charge', 'Agent turn', ${`turn:${c.messageId}`}, ${atTs}
      FROM y WHERE NOT y."charged" AND y."fromCredit" > 0
    ),
    acct AS (
      INSERT INTO "BillingAccount" ("userId", "currency", "balanceCents", "sessionWindowStart", "createdAt", "updatedAt")
      SELECT y."payerId", y."currency", y."balanceCents" - y."fromCredit", CASE WHEN y."sessionStart" IS NULL THEN ${atTs} ELSE ${tsOf(Prisma.sql`y."sessionStart"`)} END, ${atTs}, ${atTs}
      FROM y WHERE NOT y."charged" AND (y."sessionStart" IS NULL OR y."fromCredit" > 0)
      ON CONFLICT ("userId") DO UPDATE SET "balanceCents" = EXCLUDED."balanceCents", "sessionWindowStart" = EXCLUDED."sessionWindowStart", "updatedAt" = EXCLUDED."updatedAt"
    )
    SELECT y."charged", ${costSql} - y."fromCredit" AS "allowanceCents", y."fromCredit" AS "creditCents" FROM y`;
  if (!row || row.charged) return null;
  return { allowanceCents: Number(row.allowanceCents), creditCents: Number(row.creditCents) };
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
