"use client";

// The billing page: credit, cards, plan, usage windows, spend per day, transactions and invoices.
// Reads go through the data layer (lib/api/swr.ts); writes through the typed client, then revalidate.
import dynamic from "next/dynamic";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { Suspense, useEffect, useState, type FormEvent } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { call } from "@/lib/api/client";
import { revalidateOperations, useOperation } from "@/lib/api/swr";
import type { OperationId } from "@/lib/api/types";
import { errorMessage } from "@/lib/ui/form-issues";
import { useMorePages } from "@/lib/ui/use-more-pages";
import { cloudSizeText, formatMoney, plural, utcDays } from "@/lib/ui/format";
import { ErrorAlert } from "@/components/ui/error-alert";
import { LoadMore } from "@/components/ui/load-more";
import { LoadError, Loading } from "@/components/ui/load-state";
import styles from "./billing.module.css";

// Stripe Elements only with real keys, loaded on demand: test mode never fetches Stripe.js.
const StripeCardForm = dynamic(() => import("./stripe-elements").then((m) => m.StripeCardForm), { ssr: false, loading: () => <Loading inline label="Loading the card form…" /> });

const MONEY_OPS: OperationId[] = ["billing_getBalance", "billing_getTransactions", "billing_getUsageStatus", "billing_getPaymentMethods", "billing_getSubscription", "billing_getSubscriptionPlans", "billing_getInvoices"];
const refreshAll = () => revalidateOperations(MONEY_OPS);
/** The first page of transactions: the list shows it, and Credit watches it for a credit on its way (one cache entry). */
const TRANSACTIONS_PAGE = { query: { limit: 20 } };

const when = (ms: number | null) => (ms ? new Date(ms).toLocaleString() : "—");

/**
 * Stripe's test cards → Stripe's test payment-method tokens. In test mode (the local stand-in) the
 * form sends only the token, never a card number; real cards go through Stripe Elements.
 */
const TEST_CARDS: Record<string, string> = {
  "4242424242424242": "pm_card_visa",
  "5555555555554444": "pm_card_mastercard",
  "4000000000000002": "pm_card_chargeDeclined",
  "4000000000009995": "pm_card_chargeDeclinedInsufficientFunds",
  "4000002500003155": "pm_card_authenticationRequired",
};

export function BillingPage() {
  const plans = useOperation("billing_getSubscriptionPlans", {});
  const testMode = plans.data?.testMode ?? true;
  return (
    <>
      <header className={styles.header}>
        <h1>Billing</h1>
        {testMode && <p className={styles.test}>Test mode: payments go to a local Stripe stand-in. No real card is charged; use Stripe&apos;s test cards (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined).</p>}
      </header>
      <div className={styles.grid}>
        {/* Credit reads the 3-D Secure return from the URL (useSearchParams needs a boundary). */}
        <Suspense fallback={<Loading label="Loading credit…" />}>
          <Credit />
        </Suspense>
        <Cards />
      </div>
      <div className={styles.grid}>
        <Plan />
        <UsageWindows />
      </div>
      <SpendChart />
      <Transactions />
      <Invoices />
    </>
  );
}

function Credit() {
  const plans = useOperation("billing_getSubscriptionPlans", {});
  const cards = useOperation("billing_getPaymentMethods", {});
  // Read while rendering: SWR re-renders a component only for the fields its render used, so a
  // handler that read `cards.data` alone would still see the list from before a card was saved.
  const defaultCard = cards.data?.defaultPaymentMethodId ?? null;
  const [amount, setAmount] = useState("10");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");
  const balance = useOperation("billing_getBalance", {});
  const params = useSearchParams();
  // Back from the bank's 3-D Secure page (Stripe's redirect: ?payment_intent=…&redirect_status=…).
  const redirect = params.get("redirect_status");
  const returned = params.get("payment_intent");
  const [error, setError] = useState<string | null>(() => (redirect && redirect !== "succeeded" ? "Your bank did not confirm the payment; nothing was charged." : null));
  // A payment the bank confirmed is credited by Stripe's webhook a moment later: watch the
  // transactions for it (for at most a minute) and say so when it is there.
  const [pending, setPending] = useState<{ id: string; cents: number; until: number } | null>(() =>
    redirect === "succeeded" && returned ? { id: returned, cents: Number(params.get("amount")) || 0, until: Date.now() + 60_000 } : null,
  );
  const credited = (page?: { items: { paymentIntentId: string | null }[] }) => !!pending && !!page?.items.some((t) => t.paymentIntentId === pending.id);
  const transactions = useOperation("billing_getTransactions", TRANSACTIONS_PAGE, { refreshInterval: (page) => (pending && !credited(page) && Date.now() < pending.until ? 1000 : 0) });
  const arrived = credited(transactions.data);

  function awaitCredit(id: string, cents: number) {
    setNotice("");
    setPending({ id, cents, until: Date.now() + 60_000 });
  }

  // Drop Stripe's query from the address without a navigation (Next keeps useSearchParams in step
  // with history.replaceState), so a reload does not show the bank's answer again.
  useEffect(() => {
    if (redirect) window.history.replaceState(null, "", "/billing");
  }, [redirect]);
  useEffect(() => {
    if (arrived) void refreshAll();
  }, [arrived]);
  const waiting = pending ? (arrived ? `${formatMoney(pending.cents)} added.` : "Payment confirmed by your bank: the credit shows as soon as Stripe reports it…") : "";

  async function add(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice("");
    const card = defaultCard;
    if (!card) return setError("Add a card first.");
    setBusy(true);
    try {
      const pi = await call("billing_createPaymentIntent", { body: { amountCents: Math.round(Number(amount) * 100), paymentMethodId: card } });
      if (pi.status === "succeeded") setNotice(`${formatMoney(pi.amountCents)} added.`);
      else if (pi.status === "requires_action") {
        // 3-D Secure: the bank's page (test mode: the stand-in's, which comes back here), or Stripe.js.
        const publishableKey = plans.data?.publishableKey;
        if (publishableKey && pi.clientSecret) {
          const { authenticatePayment } = await import("./stripe-elements");
          const failed = await authenticatePayment(publishableKey, pi.clientSecret);
          if (failed) setError(failed);
          else awaitCredit(pi.id, pi.amountCents);
        } else if (pi.nextAction?.url) {
          const back = new URL(`/billing?amount=${pi.amountCents}`, window.location.href);
          // The bank's page is another site (in test mode, the stand-in's): a full navigation.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          window.location.href = `${pi.nextAction.url}?return_url=${encodeURIComponent(back.href)}`;
          return;
        } else setError("Your bank asks to confirm this payment, which this page cannot do; nothing was charged. Try another card.");
      } else setError(pi.lastError?.message ?? `The payment is ${pi.status}.`);
      await refreshAll();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={styles.card} aria-labelledby="credit-title">
      <h2 id="credit-title">Credit</h2>
      {balance.error ? <LoadError inline what="the balance" message={balance.error.message} onRetry={() => void balance.mutate()} /> : !balance.data ? <Loading inline label="Loading balance…" /> : (
        <p className={styles.big} data-testid="balance">{formatMoney(balance.data.balanceCents, balance.data.currency)}</p>
      )}
      <form onSubmit={add} className={styles.row}>
        <label htmlFor="credit-amount">Add</label>
        <select id="credit-amount" className={styles.control} value={amount} onChange={(e) => setAmount(e.target.value)}>
          {["5", "10", "25", "50", "100"].map((v) => <option key={v} value={v}>{formatMoney(Number(v) * 100)}</option>)}
        </select>
        <button type="submit" disabled={busy || !defaultCard} aria-describedby="credit-card-note">{busy ? "Paying…" : "Add credit"}</button>
      </form>
      <p className="muted" id="credit-card-note" data-testid="credit-card-note">{defaultCard ? "Paid with your default card." : cards.data ? "Add a card under Cards first: credit is paid with your default card." : "Paid with your default card."}</p>
      <ErrorAlert message={error} />
      {(notice || waiting) && <p role="status">{notice || waiting}</p>}
    </section>
  );
}

function Cards() {
  const cards = useOperation("billing_getPaymentMethods", {});
  const plans = useOperation("billing_getSubscriptionPlans", {});
  const [number, setNumber] = useState("");
  const [exp, setExp] = useState("12/34");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(key: string, fn: () => Promise<unknown>) {
    setBusy(key);
    setError(null);
    try {
      await fn();
      await refreshAll();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  function addCard(e: FormEvent) {
    e.preventDefault();
    const token = TEST_CARDS[number.replace(/\s+/g, "")];
    if (!token) return setError("Test mode takes Stripe's test cards only, e.g. 4242 4242 4242 4242.");
    if (!/^(0[1-9]|1[0-2])\/\d{2}$/.test(exp)) return setError("Expiry must be MM/YY.");
    void act("add", async () => {
      await call("billing_setupPaymentMethod", { body: { paymentMethodId: token } });
      setNumber("");
    });
  }

  return (
    <section className={styles.card} aria-labelledby="cards-title">
      <h2 id="cards-title">Cards</h2>
      {cards.error ? <LoadError inline what="your cards" message={cards.error.message} onRetry={() => void cards.mutate()} /> : !cards.data ? <Loading inline label="Loading cards…" /> : cards.data.items.length === 0 ? <p className="muted">No card saved yet.</p> : (
        <ul className={styles.list} aria-label="Saved cards">
          {cards.data.items.map((c) => (
            <li key={c.id}>
              <span>{c.brand} •••• {c.last4} <span className="muted">{String(c.expMonth).padStart(2, "0")}/{String(c.expYear).slice(-2)}</span> {c.isDefault && <span className={styles.badge}>Default</span>}</span>
              <span className={styles.row}>
                {!c.isDefault && <button type="button" className="secondary" disabled={busy !== null} onClick={() => void act(c.id, () => call("billing_setDefaultPaymentMethod", { body: { paymentMethodId: c.id } }))}>Make default</button>}
                <button type="button" className="secondary" disabled={busy !== null} onClick={() => void act(c.id, () => call("billing_deletePaymentMethod", { params: { paymentMethodId: c.id }, body: { paymentMethodId: c.id } }))}>Remove</button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {plans.data?.publishableKey ? (
        <StripeCardForm publishableKey={plans.data.publishableKey} onSaved={async () => {
            await refreshAll();
          }} />
      ) : (
      <form onSubmit={addCard} className={styles.test} aria-label="Add a test card">
        <p><strong>Test card</strong> (test mode)</p>
        <div className={styles.row}>
          <span className={styles.pair}>
            <label htmlFor="card-number">Card number</label>
            <input id="card-number" className={styles.control} inputMode="numeric" autoComplete="off" value={number} onChange={(e) => setNumber(e.target.value)} placeholder="4242 4242 4242 4242" />
          </span>
          <span className={styles.pair}>
            <label htmlFor="card-exp">Expiry</label>
            <input id="card-exp" className={styles.control} size={5} value={exp} onChange={(e) => setExp(e.target.value)} />
          </span>
          <button type="submit" disabled={busy !== null}>{busy === "add" ? "Saving…" : "Save card"}</button>
        </div>
      </form>
      )}
      <ErrorAlert message={error} />
    </section>
  );
}

function Plan() {
  const plans = useOperation("billing_getSubscriptionPlans", {});
  const sub = useOperation("billing_getSubscription", {});
  // A member of someone else's team: the team's pool pays their turns, so no plan of their own
  // (subscribing or changing tier is 409 paid_by_team; docs/api.md "Own plans of members").
  const status = useOperation("billing_getUsageStatus", {});
  const profile = useOperation("user_profile", {});
  const pooled = status.data?.teamPool != null && profile.data !== undefined && status.data.teamPool.ownerId !== profile.data.id;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");

  async function change(tier: "free" | "pro" | "max") {
    setBusy(tier);
    setError(null);
    setNotice("");
    try {
      const current = sub.data?.tier ?? "free";
      if (tier === "free") {
        const r = await call("billing_cancelSubscription", { body: { atPeriodEnd: true } });
        setNotice(`Your plan ends on ${when(r.subscription.currentPeriodEnd)}; then you are on Free.`);
      } else if (current === "free") {
        const r = await call("billing_createSubscription", { body: { tier } });
        setNotice(`Subscribed: ${formatMoney(r.chargedNowCents)} charged now.`);
      } else {
        const r = await call("billing_updateSubscription", { body: { tier } });
        setNotice(`Plan changed: ${formatMoney(r.chargedNowCents)} charged now.`);
      }
      await refreshAll();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  if (plans.error) return <LoadError what="plans" message={plans.error.message} onRetry={() => void plans.mutate()} />;
  if (!plans.data || !sub.data) return <Loading label="Loading plans…" />;
  const current = sub.data;
  return (
    <section className={styles.card} aria-labelledby="plan-title">
      <h2 id="plan-title">Plan: <span data-testid="current-plan">{plans.data.plans.find((p) => p.current)?.name}</span></h2>
      {current.tier !== "free" && current.status === "past_due" ? (
        <p role="alert" data-testid="plan-past-due">
          The renewal payment failed, so the plan is past due. Make a working card the default below for the next attempt.
        </p>
      ) : current.tier !== "free" ? (
        <p className="muted">{current.cancelAtPeriodEnd ? `Ends ${when(current.currentPeriodEnd)}` : `Renews ${when(current.currentPeriodEnd)}`}</p>
      ) : null}
      {pooled ? (
        <p id="plan-team-note" data-testid="plan-team-note">
          Your agent turns are paid by your team&apos;s shared pool, so you need no plan of your own while you are in the team
          {current.tier !== "free" ? (current.cancelAtPeriodEnd ? `: this plan ends ${when(current.currentPeriodEnd)} and is not renewed` : ": cancel this plan at period end to stop paying for it") : ""}. Leave the team to choose a plan again.
        </p>
      ) : null}
      <div className={styles.plans}>
        {plans.data.plans.map((p) => (
          <div key={p.tier} className={styles.plan} data-current={p.current}>
            <p><strong>{p.name}</strong> · {formatMoney(p.priceCents)}/month</p>
            <p className="muted">{formatMoney(p.sessionAllowanceCents)} per 5-hour session, {formatMoney(p.weeklyAllowanceCents)} per week, {formatMoney(p.monthlyAllowanceCents)} per month of agent use</p>
            <p className="muted" data-testid="plan-cloud">{p.cloudDevice ? `A ${p.cloudDevice.size} cloud device: ${cloudSizeText(p.cloudDevice)}` : "No cloud device"}</p>
            {p.current ? (current.tier !== "free" && current.cancelAtPeriodEnd ? <button type="button" disabled={busy !== null || pooled} aria-describedby={pooled ? "plan-team-note" : undefined} onClick={() => void change(p.tier)}>Keep {p.name}</button> : <span className={styles.badge}>Current plan</span>) : (
              <button type="button" disabled={busy !== null || (pooled && p.tier !== "free")} aria-describedby={pooled && p.tier !== "free" ? "plan-team-note" : undefined} onClick={() => void change(p.tier)}>
                {p.tier === "free" ? "Cancel at period end" : `${current.tier === "free" ? "Subscribe" : p.priceCents > (plans.data!.plans.find((x) => x.current)?.priceCents ?? 0) ? "Upgrade" : "Downgrade"} · ${formatMoney(p.changeNowCents)} now`}
              </button>
            )}
          </div>
        ))}
      </div>
      <ErrorAlert message={error} />
      {notice && <p role="status">{notice}</p>}
    </section>
  );
}

function WindowBar({ label, w, currency }: { label: string; w: { limitCents: number; usedCents: number; remainingCents: number; resetsAt: number | null }; currency: string }) {
  const pct = w.limitCents > 0 ? Math.min(100, Math.round((w.usedCents / w.limitCents) * 100)) : 100;
  return (
    <div className={styles.window}>
      <p><strong>{label}</strong>: {formatMoney(w.usedCents, currency)} of {formatMoney(w.limitCents, currency)} used</p>
      <div className={styles.bar} role="progressbar" aria-label={`${label} window`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}><span style={{ width: `${pct}%` }} /></div>
      <p className="muted">{w.resetsAt ? `Resets ${when(w.resetsAt)}` : "Opens with your next agent turn"}</p>
    </div>
  );
}

function UsageWindows() {
  const status = useOperation("billing_getUsageStatus", {}, { refreshInterval: 15_000 });
  const profile = useOperation("user_profile", {});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (status.error) return <LoadError what="usage" message={status.error.message} onRetry={() => void status.mutate()} />;
  if (!status.data) return <Loading label="Loading usage…" />;
  const s = status.data;
  // A member of someone else's team: the pool's switch is the owner's.
  const pooled = s.teamPool !== null && profile.data !== undefined && s.teamPool.ownerId !== profile.data.id;
  async function toggle(on: boolean) {
    setBusy(true);
    setError(null);
    try {
      await call("billing_setAllowExtraSpend", { body: { allowExtraSpend: on } });
      await refreshAll();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className={styles.card} aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <WindowBar label="Session" w={s.session} currency={s.currency} />
      <WindowBar label="Week" w={s.weekly} currency={s.currency} />
      <WindowBar label="Month" w={s.monthly} currency={s.currency} />
      {!s.canStartTurn && <p role="alert" className="error">New agent turns are paused: the {s.blockedBy} window is used up until {when(s[s.blockedBy ?? "monthly"].resetsAt)}.</p>}
      {pooled ? (
        <p className="muted" data-testid="team-pool">
          Your agent turns draw on your <Link href="/team">team</Link>&apos;s shared pool: these are the team owner&apos;s plan windows, and with extra spend {s.allowExtraSpend ? "on" : "off"} their credit ({formatMoney(s.balanceCents, s.currency)} left) {s.allowExtraSpend ? "pays" : "does not pay"} once a window is used up. Your own credit below is kept for when you leave the team.
        </p>
      ) : (
        <label className={styles.toggle}>
          <input type="checkbox" checked={s.allowExtraSpend} disabled={busy} onChange={(e) => void toggle(e.target.checked)} />
          <span><strong>Extra spend</strong>: when a window is used up, keep going and pay from your credit ({formatMoney(s.balanceCents, s.currency)} left). Off: new turns wait until the window resets.{s.teamPool ? " Your team's members draw on these windows and this credit too." : ""}</span>
        </label>
      )}
      <ErrorAlert message={error} />
    </section>
  );
}

function SpendChart() {
  const usage = useOperation("usage_getUsage", {});
  if (usage.error) return <LoadError what="spend" message={usage.error.message} onRetry={() => void usage.mutate()} />;
  if (!usage.data) return <Loading label="Loading spend…" />;
  // Every day of the range, so a day without use is a gap and one busy day is not one wide bar.
  const byDate = new Map(usage.data.days.map((d) => [d.date, d]));
  const data = usage.data.days.length === 0 ? [] : utcDays(usage.data.from, usage.data.to).map((date) => ({ date: date.slice(5), cents: byDate.get(date)?.costCents ?? 0, turns: byDate.get(date)?.turns ?? 0 }));
  const money = (cents: unknown) => formatMoney(Number(cents), usage.data!.currency);
  return (
    <section className={styles.card} aria-labelledby="spend-title" style={{ marginBottom: "1rem" }}>
      <h2 id="spend-title">Spend per day (last 30 days)</h2>
      <p className="muted">{plural(usage.data.totals.turns, "turn")}, {formatMoney(usage.data.totals.costCents, usage.data.currency)} in all.</p>
      {data.length === 0 ? <p className="muted">No agent use in this period.</p> : (
        <div style={{ width: "100%", height: 220 }}>
          <ResponsiveContainer>
            <BarChart data={data}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="date" />
              {/* Whole cents on the axis: $0.03, not $0.025. */}
              <YAxis allowDecimals={false} width={64} tickFormatter={money} />
              <Tooltip formatter={money} />
              <Bar dataKey="cents" name="Spend" fill="var(--accent, #3b82f6)" />
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </section>
  );
}

type Page<T> = { items: T[]; nextCursor: string | null };

function Paged<T extends { id: string }>({ title, id, first, more, row, head }: { title: string; id: OperationId; first: { data?: Page<T>; error?: { message: string }; mutate: () => unknown }; more: (cursor: string) => Promise<Page<T>>; row: (item: T) => React.ReactNode; head: React.ReactNode }) {
  const paged = useMorePages(first.data, more);
  if (first.error) return <LoadError what={title.toLowerCase()} message={first.error.message} onRetry={() => void first.mutate()} />;
  if (!first.data) return <Loading label={`Loading ${title.toLowerCase()}…`} />;
  return (
    <section className={styles.card} aria-labelledby={`${id}-title`} style={{ marginBottom: "1rem" }}>
      <h2 id={`${id}-title`}>{title}</h2>
      {paged.items.length === 0 ? <p className="muted">Nothing yet.</p> : (
        <table className={styles.table}>
          <thead>{head}</thead>
          <tbody>{paged.items.map((i) => <tr key={i.id}>{row(i)}</tr>)}</tbody>
        </table>
      )}
      <LoadMore more={paged} label="Load more" />
    </section>
  );
}

function Transactions() {
  const first = useOperation("billing_getTransactions", TRANSACTIONS_PAGE);
  return (
    <Paged
      title="Transactions"
      id="billing_getTransactions"
      first={first}
      more={(cursor) => call("billing_getTransactions", { query: { ...TRANSACTIONS_PAGE.query, cursor } })}
      head={<tr><th>When</th><th>What</th><th className={styles.amount}>Amount</th><th className={styles.amount}>Balance</th></tr>}
      row={(t) => (
        <>
          <td>{when(t.createdAt)}</td>
          <td>{t.description || t.kind.replace(/_/g, " ")}</td>
          <td className={styles.amount}>{formatMoney(t.amountCents, t.currency)}</td>
          <td className={styles.amount}>{formatMoney(t.balanceAfterCents, t.currency)}</td>
        </>
      )}
    />
  );
}

function Invoices() {
  const first = useOperation("billing_getInvoices", { query: { limit: 20 } });
  return (
    <Paged
      title="Invoices"
      id="billing_getInvoices"
      first={first}
      more={(cursor) => call("billing_getInvoices", { query: { limit: 20, cursor } })}
      head={<tr><th>When</th><th>Status</th><th className={styles.amount}>Amount</th><th /></tr>}
      row={(i) => (
        <>
          <td>{when(i.createdAt)}</td>
          <td>{i.status}</td>
          <td className={styles.amount}>{formatMoney(i.amountCents, i.currency)}</td>
          <td>{i.hostedUrl && !i.hostedUrl.startsWith("http://127.0.0.1") ? <a href={i.hostedUrl} target="_blank" rel="noreferrer">View</a> : null}</td>
        </>
      )}
    />
  );
}
