import { z } from "zod";
import { ZId, ZName, ZTimestamp } from "./common.ts";
import { ZCloudDeviceSize } from "./devices.ts";
import { ZEmail } from "./projects.ts";

// ───────────── Countries ─────────────

// ISO 3166-1 alpha-2, the officially assigned codes, plus XK (Kosovo), which payment processors use.
const COUNTRY_CODES = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
    "KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT " +
    "MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
    "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ " +
    "UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XK"
  ).split(" "),
);

export function isCountryCode(value: string): boolean {
  return COUNTRY_CODES.has(value);
}

export const ZCountryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, { message: "must be an ISO 3166-1 alpha-2 code in upper case, e.g. DE", abort: true })
  .refine(isCountryCode, "is not an ISO 3166-1 alpha-2 country code")
  .describe("ISO 3166-1 alpha-2, upper case (`DE`, `US`, `GB`)")
  .meta({ enum: [...COUNTRY_CODES].sort() });

// ───────────── Tax ids ─────────────

export const TAX_ID_TYPES = ["eu_vat", "gb_vat", "us_ein", "ch_vat", "au_abn", "ca_bn", "no_vat", "in_gst"] as const;
export type TaxIdType = (typeof TAX_ID_TYPES)[number];

// VAT prefixes of the EU member states (Greece is EL) and XI for Northern Ireland.
const EU_VAT_PREFIXES = "AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI";

type TaxIdRule = {
  /** Matched against the value in upper case with spaces removed (and, where `compact`, dots and hyphens too). */
  pattern: RegExp;
  compact: boolean;
  /** The stored form of a matching value. */
  format: (m: RegExpMatchArray) => string;
  /** What the 400 says. */
  expected: string;
};

const TAX_ID_RULES: Record<TaxIdType, TaxIdRule> = {
  eu_vat: {
    pattern: new RegExp(`^(?:${EU_VAT_PREFIXES})[0-9A-Z]{8,12}$`),
    compact: true,
    format: (m) => m[0],
    expected: "an EU VAT number: a member state prefix (AT … SK, EL for Greece, XI) and 8–12 letters or digits, e.g. DE123456789",
  },
  gb_vat: {
    pattern: /^GB(?:\d{9}|\d{12})$/,
    compact: true,
    format: (m) => m[0],
    expected: "a UK VAT number: GB and 9 or 12 digits, e.g. GB123456789",
  },
  us_ein: {
    pattern: /^\d{2}-\d{7}$/,
    compact: false,
    format: (m) => m[0],
    expected: "a US EIN: NN-NNNNNNN, e.g. 12-3456789",
  },
  ch_vat: {
    pattern: /^CHE-?(\d{3})\.?(\d{3})\.?(\d{3})(MWST|TVA|IVA)?$/,
    compact: false,
    format: (m) => `CHE-${m[1]}.${m[2]}.${m[3]}${m[4] ? ` ${m[4]}` : ""}`,
    expected: "a Swiss UID/VAT number: CHE-123.456.789, optionally followed by MWST, TVA or IVA",
  },
  au_abn: {
    pattern: /^\d{11}$/,
    compact: true,
    format: (m) => m[0],
    expected: "an Australian ABN: 11 digits, e.g. 12345678912",
  },
  ca_bn: {
    pattern: /^\d{9}$/,
    compact: true,
    format: (m) => m[0],
    expected: "a Canadian business number: 9 digits, e.g. 123456789",
  },
  no_vat: {
    pattern: /^(?:NO)?(\d{9})MVA$/,
    compact: true,
    format: (m) => `${m[1]}MVA`,
    expected: "a Norwegian VAT number: 9 digits and MVA, e.g. 123456789MVA",
  },
  in_gst: {
    pattern: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
    compact: true,
    format: (m) => m[0],
    expected: "an Indian GSTIN: 15 characters, e.g. 22AAAAA0000A1Z5",
  },
};

/** The stored (canonical) form of a tax id, or null when the value does not have the shape its type requires. */
export function canonicalTaxId(type: TaxIdType, value: string): string | null {
  const rule = TAX_ID_RULES[type];
  if (!rule) return null;
  let v = value.trim().toUpperCase().replace(/\s+/g, "");
  if (rule.compact) v = v.replace(/[.-]/g, "");
  const m = v.match(rule.pattern);
  return m ? rule.format(m) : null;
}

export function taxIdExpectation(type: TaxIdType): string {
  return TAX_ID_RULES[type].expected;
}

export const ZTaxIdType = z.enum(TAX_ID_TYPES);

export const ZTaxId = z
  .object({
    type: ZTaxIdType,
    value: z.string().trim().min(1, "must not be empty").max(40, "must be at most 40 characters"),
  })
  .superRefine((v, ctx) => {
    if (canonicalTaxId(v.type, v.value) === null) ctx.addIssue({ code: "custom", path: ["value"], message: `must be ${taxIdExpectation(v.type)}` });
  })
  // Stored canonical: upper case, without spaces (and dots and hyphens where the format has none).
  .overwrite((v) => ({ ...v, value: canonicalTaxId(v.type, v.value) ?? v.value }))
  .describe("Checked in shape per type (not with the tax authority)");

// ───────────── Billing info ─────────────

const optionalLine = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).optional();

export const ZBillingAddress = z.object({
  line1: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  line2: optionalLine(200),
  city: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  postalCode: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(20, "must be at most 20 characters")
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, "letters, digits, spaces and hyphens only"),
  state: optionalLine(100),
  country: ZCountryCode,
});

export const ZBillingInfoInput = z
  .object({
    name: ZName.describe("Name on invoices (person or company)"),
    email: ZEmail.optional().describe("Email for invoices, if not the account's own"),
    address: ZBillingAddress,
    taxId: ZTaxId.optional(),
  })
  .meta({ id: "BillingInfoInput" });

export const ZBillingInfo = z
  .object({
    name: z.string(),
    email: z.string().optional(),
    address: z.object({
      line1: z.string(),
      line2: z.string().optional(),
      city: z.string(),
      postalCode: z.string(),
      state: z.string().optional(),
      country: z.string(),
    }),
    taxId: z.object({ type: ZTaxIdType, value: z.string() }).optional(),
    updatedAt: ZTimestamp.describe("When this billing information was saved"),
  })
  .meta({ id: "BillingInfo" });

export const ZBillingUpdateResult = z
  .object({
    updated: z.literal(true),
    billingInfo: ZBillingInfo,
  })
  .meta({ id: "BillingUpdateResult" });

export type TBillingInfoInput = z.output<typeof ZBillingInfoInput>;
export type TBillingInfo = z.infer<typeof ZBillingInfo>;
export type TBillingUpdateResult = z.infer<typeof ZBillingUpdateResult>;

// ───────────── Money, ledger, plans, usage (issue 12) ─────────────
// Amounts are integer cents with an ISO 4217 currency code in lower case (Stripe's form).

const ZCents = z.number().int().describe("Integer amount in the smallest currency unit (cents)");
const ZCurrency = z.string().regex(/^[a-z]{3}$/).describe("ISO 4217 currency code, lower case (`usd`)");
export const ZTier = z.enum(["free", "pro", "max"]).describe("Plan tier");
const ZCursor = z.string().min(1).max(128).optional().describe("`nextCursor` of the previous page");

export const ZUserBalance = z
  .object({
    balanceCents: ZCents.describe("Manual credit left: the sum of every ledger transaction"),
    currency: ZCurrency,
    allowExtraSpend: z.boolean().describe("Whether turns go on against this credit once the plan's windows are used up"),
  })
  .meta({ id: "UserBalance" });

export const ZTransaction = z
  .object({
    id: z.string(),
    amountCents: ZCents.describe("Positive: credit added; negative: spent"),
    balanceAfterCents: ZCents,
    currency: ZCurrency,
    kind: z.enum(["credit_purchase", "usage_charge", "refund", "grant", "plan_allowance"]),
    description: z.string(),
    paymentIntentId: z.string().nullable().describe("A credit purchase's Stripe PaymentIntent (pi_…), null for other kinds"),
    createdAt: ZTimestamp,
  })
  .meta({ id: "Transaction" });

export const ZPageQuery = z.object({
  limit: z.coerce.number().transform((n) => (Number.isInteger(n) && n > 200 ? 200 : n)).pipe(z.number().int().min(1).max(200)).default(50).describe("Page size: default 50, larger than 200 is clamped to 200"),
  cursor: ZCursor,
});

export const ZTransactionPage = z.object({ items: z.array(ZTransaction), nextCursor: z.string().nullable() }).meta({ id: "TransactionPage" });

export const ZInvoice = z
  .object({
    id: z.string(),
    stripeInvoiceId: z.string().nullable(),
    amountCents: ZCents,
    currency: ZCurrency,
    status: z.string().describe("Stripe's invoice status (`paid`, `open`, …)"),
    hostedUrl: z.string().nullable(),
    createdAt: ZTimestamp,
  })
  .meta({ id: "Invoice" });
export const ZInvoicesPage = z.object({ items: z.array(ZInvoice), nextCursor: z.string().nullable() }).meta({ id: "InvoicesPage" });

const ZPaymentMethodId = z.string().trim().min(1).max(255).describe("A payment method id (pm_…)");

export const ZPaymentIntentInput = z
  .object({
    amountCents: z.number().int().min(100, "must be at least 100 (1.00)").max(100_000, "must be at most 100000 (1000.00)").describe("Credit to add, in cents"),
    currency: z.literal("usd").default("usd").describe("Only `usd`"),
    paymentMethodId: ZPaymentMethodId.optional().describe("A saved card of the caller, or a fresh one from Stripe.js / the test-card form: the payment is confirmed now. Without it the answer's `clientSecret` is confirmed in the browser."),
  })
  .strict()
  .meta({ id: "PaymentIntentInput" });

const ZPaymentError = z.object({ code: z.string().nullable(), declineCode: z.string().nullable(), message: z.string() });

export const ZPaymentIntent = z
  .object({
    id: z.string().describe("Stripe's PaymentIntent id (pi_…)"),
    status: z.enum(["requires_payment_method", "requires_confirmation", "requires_action", "processing", "requires_capture", "canceled", "succeeded"]),
    amountCents: ZCents,
    currency: ZCurrency,
    clientSecret: z.string().nullable(),
    nextAction: z.object({ type: z.string(), url: z.string().nullable() }).nullable(),
    lastError: ZPaymentError.nullable(),
    balanceCents: ZCents.nullable().describe("The balance after the credit when the payment succeeded now"),
  })
  .meta({ id: "PaymentIntent" });

export const ZSetupPaymentMethodInput = z
  .object({ paymentMethodId: ZPaymentMethodId.optional().describe("A card from Stripe.js / the test-card form (or a Stripe test token such as pm_card_visa): saved now") })
  .strict()
  .meta({ id: "SetupPaymentMethodInput" });

export const ZPaymentMethod = z
  .object({ id: z.string(), brand: z.string(), last4: z.string(), expMonth: z.number().int(), expYear: z.number().int(), isDefault: z.boolean(), createdAt: ZTimestamp })
  .meta({ id: "PaymentMethod" });

export const ZSetupIntent = z
  .object({
    id: z.string().describe("Stripe's SetupIntent id (seti_…)"),
    status: z.string(),
    clientSecret: z.string().nullable(),
    paymentMethod: ZPaymentMethod.nullable().describe("The saved card once the setup succeeded"),
    publishableKey: z.string().nullable(),
    testMode: z.boolean().describe("True when the local Stripe stand-in serves payments (no real card is charged)"),
    standinUrl: z.string().nullable().describe("Test mode: where the browser's test-card form creates its card"),
  })
  .meta({ id: "SetupIntent" });

export const ZPaymentMethodList = z
  .object({ items: z.array(ZPaymentMethod), defaultPaymentMethodId: z.string().nullable() })
  .meta({ id: "PaymentMethodList" });

export const ZPaymentMethodIdInput = z.object({ paymentMethodId: ZPaymentMethodId }).strict().meta({ id: "PaymentMethodIdInput" });
export const ZPaymentMethodIdParams = z.object({ paymentMethodId: ZPaymentMethodId });

export const ZPlan = z
  .object({
    tier: ZTier,
    name: z.string(),
    priceCents: ZCents.describe("Per month"),
    currency: ZCurrency,
    interval: z.literal("month"),
    monthlyAllowanceCents: ZCents,
    sessionAllowanceCents: ZCents,
    sessionWindowHours: z.number(),
    weeklyAllowanceCents: ZCents,
    current: z.boolean(),
    changeNowCents: ZCents.describe("What moving to this plan charges now (prorated for the rest of the period; 0 for the current plan, a downgrade or free)"),
    cloudDevice: ZCloudDeviceSize.nullable().describe("The hosted cloud device the plan includes (device_resyncCloud starts it); null for none"),
  })
  .meta({ id: "SubscriptionPlan" });
export const ZSubscriptionPlansResponse = z
  .object({
    plans: z.array(ZPlan),
    currentTier: ZTier,
    testMode: z.boolean(),
    publishableKey: z.string().nullable().describe("With real Stripe keys: the publishable key Stripe.js (Elements, 3-D Secure) starts with; null in test mode"),
  })
  .meta({ id: "SubscriptionPlansResponse" });

export const ZSubscriptionInfo = z
  .object({
    tier: ZTier,
    status: z.string().describe("`active`, `canceled`, … (`active` for the free tier)"),
    cancelAtPeriodEnd: z.boolean(),
    currentPeriodStart: ZTimestamp.nullable(),
    currentPeriodEnd: ZTimestamp.nullable(),
    priceCents: ZCents,
    currency: ZCurrency,
    stripeSubscriptionId: z.string().nullable(),
  })
  .meta({ id: "SubscriptionInfo" });

export const ZSubscriptionResult = z
  .object({ subscription: ZSubscriptionInfo, chargedNowCents: ZCents.describe("What this change charged the card now") })
  .meta({ id: "SubscriptionResult" });

export const ZCreateSubscriptionInput = z
  .object({ tier: z.enum(["pro", "max"]), paymentMethodId: ZPaymentMethodId.optional().describe("A saved card; default: the default card") })
  .strict()
  .meta({ id: "CreateSubscriptionInput" });
export const ZUpdateSubscriptionInput = z.object({ tier: z.enum(["pro", "max"]) }).strict().meta({ id: "UpdateSubscriptionInput" });
export const ZCancelSubscriptionInput = z
  .object({ atPeriodEnd: z.boolean().default(true).describe("True (default): runs to the end of the paid period; false: ends now") })
  .strict()
  .meta({ id: "CancelSubscriptionInput" });

const ZWindow = z.object({
  limitCents: ZCents,
  usedCents: ZCents,
  remainingCents: ZCents,
  startedAt: ZTimestamp.nullable(),
  resetsAt: ZTimestamp.nullable().describe("When the window ends (null: no session window is open; the next turn opens one)"),
});

export const ZUsageStatus = z
  .object({
    tier: ZTier,
    balanceCents: ZCents,
    currency: ZCurrency,
    allowExtraSpend: z.boolean(),
    monthly: ZWindow,
    session: ZWindow,
    weekly: ZWindow,
    canStartTurn: z.boolean(),
    blockedBy: z.enum(["session", "weekly", "monthly"]).nullable().describe("The exhausted window that refuses a new turn (null: turns may start)"),
    teamPool: z
      .object({ teamId: ZId, ownerId: ZId })
      .nullable()
      .describe("Set for a team member: their turns draw on the team's shared spend pool (the owner's plan, windows and credit), which this status then describes; null: the user's own account"),
  })
  .meta({ id: "UsageStatus" });

export const ZAllowExtraSpendInput = z.object({ allowExtraSpend: z.boolean() }).strict().meta({ id: "AllowExtraSpendInput" });

export const ZUsageQuery = z.object({
  from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional().describe("ISO 8601 start (default: 30 days before `to`)"),
  to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional().describe("ISO 8601 end (default: now)"),
});

const ZUsageTotals = z.object({ turns: z.number().int(), tokensIn: z.number().int(), tokensOut: z.number().int(), costCents: ZCents });
export const ZUsage = z
  .object({
    from: ZTimestamp,
    to: ZTimestamp,
    currency: ZCurrency,
    totals: ZUsageTotals,
    days: z.array(ZUsageTotals.extend({ date: z.string().describe("UTC day, YYYY-MM-DD") })),
    projects: z.array(ZUsageTotals.extend({ projectId: z.string(), name: z.string().nullable() })),
  })
  .meta({ id: "Usage" });

const ZTeamUsageDay = ZUsageTotals.extend({ date: z.string().describe("UTC day, YYYY-MM-DD") });
export const ZTeamUsageResponse = z
  .object({
    teamId: z.string(),
    from: ZTimestamp,
    to: ZTimestamp,
    currency: ZCurrency,
    totals: ZUsageTotals,
    members: z
      .array(
        ZUsageTotals.extend({
          userId: z.string(),
          email: z.string(),
          name: z.string().nullable(),
          role: z.enum(["owner", "admin", "member"]),
          joinedAt: ZTimestamp,
          days: z.array(ZTeamUsageDay).describe("Days with spend, oldest first"),
        }),
      )
      .describe("Every current member, most spend first (members without spend included, with zeros)"),
  })
  .meta({ id: "TeamUsageResponse" });

export type TTeamUsageResponse = z.infer<typeof ZTeamUsageResponse>;
export type TUsageStatus = z.infer<typeof ZUsageStatus>;
export type TSubscriptionInfo = z.infer<typeof ZSubscriptionInfo>;
export type TPaymentMethod = z.infer<typeof ZPaymentMethod>;
export type TPaymentIntent = z.infer<typeof ZPaymentIntent>;
