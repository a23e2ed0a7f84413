"use client";

import { useMemo, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useOperation } from "@/lib/api/swr";
import { formatMoney, utcDays } from "@/lib/ui/format";
import { Section } from "@/components/ui/form";
import { LoadError, Loading } from "@/components/ui/load-state";
import styles from "@/components/settings/settings.module.css";

// The team's shared spend pool per member (usage_getTeamUsage, owner and admin): spend per day as
// stacked bars, one colour a member, and a table of turns, tokens and cost over the chosen range.

const RANGES = [
  { days: 7, label: "Last 7 days" },
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
] as const;
// Distinct in light and dark themes; a member past the eighth repeats a colour (the table names them all).
const COLOURS = ["#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#06b6d4", "#ec4899", "#84cc16"];
const DAY = 86_400_000;


export function TeamUsage() {
  const [days, setDays] = useState<number>(30);
  // Whole UTC days from the day the page opened, so the key (and the cache) stays the same while it is open.
  const [today] = useState(() => Math.floor(Date.now() / DAY) * DAY);
  const from = new Date(today - (days - 1) * DAY).toISOString();
  const usage = useOperation("usage_getTeamUsage", { query: { from } }, { keepPreviousData: true });
  const chart = useMemo(() => {
    const d = usage.data;
    if (!d) return [];
    // Every day of the range, so days without use are gaps on the axis.
    const byDate = new Map<string, Record<string, number | string>>(d.members.some((m) => m.days.length > 0) ? utcDays(d.from, d.to).map((date) => [date, { date: date.slice(5) }]) : []);
    for (const m of d.members)
      for (const day of m.days) {
        const row = byDate.get(day.date) ?? byDate.set(day.date, { date: day.date.slice(5) }).get(day.date)!;
        row[m.userId] = day.costCents;
      }
    return [...byDate.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, row]) => row);
  }, [usage.data]);
  const range = (
    <label className={styles.row}>
      <span>Range</span>
      <select className={styles.control} value={days} onChange={(e) => setDays(Number(e.target.value))} aria-label="Usage range">
        {RANGES.map((r) => (
          <option key={r.days} value={r.days}>
            {r.label}
          </option>
        ))}
      </select>
    </label>
  );
  const body = () => {
    if (usage.error) return <LoadError what="the team's usage" message={usage.error.message} onRetry={() => void usage.mutate()} />;
    if (!usage.data) return <Loading label="Loading the team's usage…" />;
    const d = usage.data;
    const spenders = d.members.filter((m) => m.turns > 0);
    return (
      <>
        <p className="muted" data-testid="team-usage-total">
          {d.totals.turns} {d.totals.turns === 1 ? "turn" : "turns"}, {formatMoney(d.totals.costCents, d.currency)} from the pool in all.
        </p>
        {chart.length === 0 ? (
          <p className="muted">No agent use in this period.</p>
        ) : (
          <div style={{ width: "100%", height: 240 }} role="img" aria-label="Spend per day, stacked by member">
            <ResponsiveContainer>
              <BarChart data={chart}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" />
                <YAxis allowDecimals={false} width={72} tickFormatter={(v: number) => formatMoney(v, d.currency)} />
                <Tooltip formatter={(v) => formatMoney(Number(v), d.currency)} />
                <Legend />
                {spenders.map((m, i) => (
                  <Bar key={m.userId} dataKey={m.userId} name={m.name ?? m.email} stackId="spend" fill={COLOURS[i % COLOURS.length]} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
        <table className={styles.table} data-testid="team-usage">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Turns</th>
              <th scope="col">Tokens in / out</th>
              <th scope="col">Spend</th>
            </tr>
          </thead>
          <tbody>
            {d.members.map((m) => (
              <tr key={m.userId} data-email={m.email}>
                <td>{m.name ? `${m.name} (${m.email})` : m.email}</td>
                <td>{m.turns}</td>
                <td>
                  {m.tokensIn.toLocaleString()} / {m.tokensOut.toLocaleString()}
                </td>
                <td>{formatMoney(m.costCents, d.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </>
    );
  };
  return (
    <Section id="usage" title="Usage" description="Every member's agent turns draw on the team's shared pool: the owner's plan, usage windows and credit.">
      {range}
      {body()}
    </Section>
  );
}
