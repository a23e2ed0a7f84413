import { z } from "zod";
import { ZName, ZTimestamp } from "./common.ts";
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
