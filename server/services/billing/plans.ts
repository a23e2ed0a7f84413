// The plan catalog: a free tier and two paid tiers, with their monthly price and what each allows.
// Plans live in code (not a table): each paid tier is a Stripe Price found by its lookup key, so the
// same catalog serves real Stripe and the local stand-in. Allowances are in cents of agent cost.

export const TIERS = ["free", "pro", "max"] as const;
export type Tier = (typeof TIERS)[number];
export const CURRENCY = "usd";

export type Plan = {
  tier: Tier;
  name: string;
  /** Monthly price in cents (0 for free). */
  priceCents: number;
  currency: string;
  /** Stripe Price lookup key (null for free: no Stripe subscription). */
  lookupKey: string | null;
  /** Agent cost (cents) covered per calendar month of the subscription period. */
  monthlyAllowanceCents: number;
  /** Agent cost covered per session window. */
  sessionAllowanceCents: number;
  /** Agent cost covered per weekly window. */
  weeklyAllowanceCents: number;
  /** The hosted cloud device the plan includes (device_resyncCloud), or null for none. */
  cloudDevice: CloudDeviceSize | null;
};

/** A cloud device's size: what the provisioner boots for a plan. */
export type CloudDeviceSize = { size: "small" | "large"; vcpus: number; memoryMb: number; diskGb: number };

const SMALL: CloudDeviceSize = Object.freeze({ size: "small", vcpus: 2, memoryMb: 4096, diskGb: 20 });
const LARGE: CloudDeviceSize = Object.freeze({ size: "large", vcpus: 4, memoryMb: 8192, diskGb: 50 });

/** Length of a session window: it opens with the first use after the previous one ended. */
export const SESSION_WINDOW_MS = 5 * 60 * 60 * 1000;
/** Length of a weekly window, anchored at the subscription's start. */
export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** Length of a monthly usage period when no Stripe period is known (free tier): 30 days from the anchor. */
export const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

export const PLANS: Readonly<Record<Tier, Plan>> = Object.freeze({
  free: { tier: "free", name: "Free", priceCents: 0, currency: CURRENCY, lookupKey: null, monthlyAllowanceCents: 500, sessionAllowanceCents: 50, weeklyAllowanceCents: 200, cloudDevice: null },
  pro: { tier: "pro", name: "Pro", priceCents: 2000, currency: CURRENCY, lookupKey: "todo_pro_monthly", monthlyAllowanceCents: 2000, sessionAllowanceCents: 200, weeklyAllowanceCents: 750, cloudDevice: SMALL },
  max: { tier: "max", name: "Max", priceCents: 10000, currency: CURRENCY, lookupKey: "todo_max_monthly", monthlyAllowanceCents: 10000, sessionAllowanceCents: 1000, weeklyAllowanceCents: 3500, cloudDevice: LARGE },
});

export function planOf(tier: string | null | undefined): Plan {
  return (TIERS as readonly string[]).includes(tier ?? "") ? PLANS[tier as Tier] : PLANS.free;
}

export function tierOfLookupKey(key: string | null | undefined): Tier | null {
  for (const t of TIERS) if (PLANS[t].lookupKey && PLANS[t].lookupKey === key) return t;
  return null;
}
