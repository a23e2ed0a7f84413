// usage_getTeamUsage (issue 13): per-member spend from the team's shared pool in a date range.
import type { TTeamUsageResponse } from "../../../lib/schemas/billing.ts";
import { db } from "../../runtime.ts";
import { usageRange } from "../billing/usage.ts";
import type { TeamActor } from "./teams.ts";

type Row = { userId: string; day: string; turns: bigint; tokensIn: bigint; tokensOut: bigint; costCents: bigint; currency: string };

/**
 * The team's shared spend pool in `[from, to)`: the turns charged to it (UsageRecord.teamId, set
 * when a member's turn was charged to the owner's account), per member and per UTC day. The totals
 * are everything the pool paid, also for people who have left since; the members listed are the
 * current ones, with zeros when they ran no turn. One grouped query.
 */
export async function getTeamUsage(team: TeamActor, range: { from?: string; to?: string }): Promise<TTeamUsageResponse> {
  const { from, to } = usageRange(range);
  const members = await db().teamMember.findMany({
    where: { teamId: team.teamId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { user: { select: { email: true, name: true } } },
  });
  const rows = await db().$queryRaw<Row[]>`
    SELECT u."userId", to_char(date_trunc('day', u."createdAt"), 'YYYY-MM-DD') AS day, count(*) AS turns,
           coalesce(sum(u."tokensIn"), 0) AS "tokensIn", coalesce(sum(u."tokensOut"), 0) AS "tokensOut",
           coalesce(sum(u."costCents"), 0) AS "costCents", min(u."currency") AS currency
    FROM "UsageRecord" u
    WHERE u."teamId" = ${team.teamId} AND u."createdAt" >= ${new Date(from)}::timestamp AND u."createdAt" < ${new Date(to)}::timestamp
    GROUP BY 1, 2 ORDER BY 2`;
  const zero = () => ({ turns: 0, tokensIn: 0, tokensOut: 0, costCents: 0 });
  const totals = zero();
  const byMember = new Map(members.map((m) => [m.userId, { ...zero(), days: [] as (ReturnType<typeof zero> & { date: string })[] }]));
  for (const r of rows) {
    const t = { turns: Number(r.turns), tokensIn: Number(r.tokensIn), tokensOut: Number(r.tokensOut), costCents: Number(r.costCents) };
    for (const k of ["turns", "tokensIn", "tokensOut", "costCents"] as const) totals[k] += t[k];
    const m = byMember.get(r.userId);
    if (!m) continue;
    for (const k of ["turns", "tokensIn", "tokensOut", "costCents"] as const) m[k] += t[k];
    m.days.push({ date: r.day, ...t });
  }
  return {
    teamId: team.teamId,
    from,
    to,
    currency: rows[0]?.currency ?? "usd",
    totals,
    members: members
      .map((m) => ({ userId: m.userId, email: m.user.email, name: m.user.name, role: m.role, joinedAt: m.createdAt.getTime(), ...byMember.get(m.userId)! }))
      .sort((a, b) => b.costCents - a.costCents),
  };
}
