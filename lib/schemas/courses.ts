import { z } from "zod";
import { ZEpochMs, ZId, ZKeysetCursor, ZLimit, ZTimestamp } from "./common.ts";

// Course administration (SPEC.md §4.8, docs/api.md "Course administration") and the public course
// pages (signup, ideas wall, coupon redemption).

export const ZCourseSlug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, "must be lower-case letters, digits and dashes")
  // `/admin/course/hide-idea` is an operation of its own: no course may be named like it.
  .refine((s) => s !== "hide-idea", "is reserved")
  .describe("The course's slug, e.g. `spring-2027` (not `hide-idea`)");
export const ZCourseParams = z.object({ slug: ZCourseSlug });

export const MAIL_KINDS = ["day", "start", "last"] as const;
export const RUN_KINDS = ["coupons", ...MAIL_KINDS] as const;
export const ZMailKind = z.enum(MAIL_KINDS).describe("`day` (reminder the day before), `start` (we are starting), `last` (the attendee code until it expires)");
export const ZMailParams = z.object({ slug: ZCourseSlug, kind: ZMailKind });

/** One email as an admin typed it: trimmed and lower-cased; the check is the same as the server's. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isCourseEmail = (s: string) => s.length <= 320 && EMAIL_RE.test(s);
export const normalizeEmail = (s: string) => s.trim().toLowerCase();

export const ZCourseInput = z
  .object({
    title: z.string().trim().min(1).max(200),
    startsAt: ZEpochMs.describe("When the course starts; the `day` mail is the reminder the day before"),
    attendeeCode: z.string().trim().min(1).max(100).nullable().optional().describe("The attendee code the `last` mail carries"),
    attendeeCodeEnd: ZEpochMs.nullable().optional().describe("When the attendee code stops working; the `last` mail says until when"),
    perkOpensAt: ZEpochMs.nullable().optional().describe("When the perk is granted by itself to every signup with an account (a scheduled job)"),
    perkCreditCents: z.number().int().min(0).max(1_000_000).default(0).describe("The perk: credit granted through the billing ledger (kind `grant`), in cents"),
    perkDescription: z.string().trim().max(500).default(""),
  })
  .meta({ id: "CourseInput" });

export const ZCourse = z
  .object({
    id: ZId,
    slug: ZCourseSlug,
    title: z.string(),
    startsAt: ZTimestamp,
    attendeeCodeEnd: ZTimestamp.nullable(),
    perkOpensAt: ZTimestamp.nullable(),
    perkCreditCents: z.number().int(),
    perkDescription: z.string(),
    createdAt: ZTimestamp,
  })
  .meta({ id: "Course" });

export const ZCourseStats = z.object({
  signups: z.number().int(),
  withAccount: z.number().int(),
  couponsMailed: z.number().int(),
  couponsRedeemed: z.number().int(),
  perksGranted: z.number().int(),
});

export const ZAdminCourse = ZCourse.extend({
  attendeeCode: z.string().nullable().describe("Shown to administrators only"),
  stats: ZCourseStats,
}).meta({ id: "AdminCourse" });
export const ZAdminCourseList = z.object({ items: z.array(ZAdminCourse), nextCursor: z.string().nullable() });
/** `limit` and `cursor` of a keyset-paged console list (CONVENTIONS.md "Lists and paging"). */
export const ZPageQuery = z.object({ limit: ZLimit, cursor: ZKeysetCursor });

// ── Eligible ──
export const ZEligibleInput = z
  .object({
    emails: z.array(z.string().max(1000)).min(1).max(5000).describe("Mailboxes to tag; trimmed and compared case-insensitively"),
    note: z.string().trim().max(500).default("").describe("Why (support case, signed up elsewhere); kept in the admin log"),
    skipInvalid: z
      .boolean()
      .default(false)
      .describe("false (default): one invalid address makes the call 400 with the list in `data.invalid` and nothing applied. true: the valid ones are applied and the invalid ones listed in `rejected`"),
  })
  .meta({ id: "CourseEligibleInput" });
export const ZEligibleResult = z
  .object({
    added: z.array(z.string()).describe("Addresses tagged now (a signup row each, so they get coupons and mailings)"),
    alreadyListed: z.array(z.string()).describe("Addresses that were signed up or tagged already (nothing changed for them)"),
    rejected: z.array(z.string()).describe("Invalid entries as sent (only with skipInvalid=true; otherwise the call is 400)"),
  })
  .meta({ id: "CourseEligibleResult" });

// ── Bulk mail (coupons and the three kinds) ──
export const ZResendInput = z
  .object({ resend: z.boolean().default(false).describe("true: mail everyone again, not only those not yet mailed") })
  .meta({ id: "CourseResendInput" });

export const ZMailRun = z
  .object({
    id: ZId,
    kind: z.enum(RUN_KINDS),
    resend: z.boolean(),
    state: z.enum(["queued", "running", "done"]),
    total: z.number().int().describe("Recipients of the run"),
    sent: z.number().int(),
    failed: z.number().int().describe("Recipients the provider refused after the retries; listed with the reason in the run's failures"),
    createdById: ZId,
    createdAt: ZTimestamp,
    finishedAt: ZTimestamp.nullable(),
  })
  .meta({ id: "CourseMailRun" });
export const ZMailRunList = z.object({ items: z.array(ZMailRun), nextCursor: z.string().nullable() });
export const ZMailRunFailures = z.object({
  items: z.array(z.object({ id: ZId, email: z.string(), reason: z.string().nullable(), attempts: z.number().int() })),
  nextCursor: z.string().nullable(),
});
export const ZMailRunParams = z.object({ slug: ZCourseSlug, runId: ZId });

// ── Perks ──
export const ZPerkResult = z
  .object({
    granted: z.number().int().describe("Signups granted the perk by this call"),
    alreadyGranted: z.number().int().describe("Signups with an account who had it already"),
    withoutAccount: z.number().int().describe("Signups without an account (granted when they create one)"),
  })
  .meta({ id: "CoursePerkResult" });

// ── Registrations ──
export const ZRegistration = z
  .object({
    id: ZId,
    email: z.string(),
    source: z.enum(["signup", "eligible"]),
    fingerprint: z.string().nullable(),
    ip: z.string().nullable(),
    socialHandle: z.string().nullable(),
    hasAccount: z.boolean(),
    couponMailedAt: ZTimestamp.nullable(),
    couponRedeemedAt: ZTimestamp.nullable(),
    perkClaimedAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
  })
  .meta({ id: "CourseRegistration" });

const zFlag = z.enum(["true", "false"]).transform((v) => v === "true");
export const ZRegistrationQuery = z.object({
  q: z.string().trim().max(200).optional().describe("Substring of the email, fingerprint or IP"),
  hasAccount: zFlag.optional(),
  mailed: zFlag.optional().describe("Coupon mailed"),
  redeemed: zFlag.optional().describe("Coupon redeemed"),
  claimed: zFlag.optional().describe("Perk granted"),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: ZLimit,
});
export const ZRegistrationList = z.object({ items: z.array(ZRegistration), total: z.number().int().describe("Matching registrations in all (for paging)") }).meta({ id: "CourseRegistrationList" });

// ── Audit ──
export const ZAuditMember = z.object({
  email: z.string(),
  fingerprint: z.string().nullable(),
  ip: z.string().nullable(),
  socialHandle: z.string().nullable(),
  redeemed: z.boolean(),
  followsPage: z.boolean().nullable().describe("For a coupon redeemer: whether their handle is in the follower snapshot; null for others"),
});
export const ZAuditCluster = z.object({
  by: z.enum(["fingerprint", "ip"]),
  value: z.string(),
  size: z.number().int().describe("Signups sharing the value; `members` lists the first 100 of them"),
  members: z.array(ZAuditMember),
});
export const ZCourseAudit = z
  .object({
    clusters: z.array(ZAuditCluster).describe("Groups of two or more signups sharing a device fingerprint or an IP, biggest first: the biggest 100"),
    redeemers: z.array(ZAuditMember).describe("The coupon redeemers, with `followsPage`, in signup order: the first 1,000"),
    redeemerCount: z.number().int().describe("Coupon redeemers in all"),
    followerSnapshot: z.object({ count: z.number().int() }),
  })
  .meta({ id: "CourseAudit" });

export const ZHandle = z
  .string()
  .trim()
  .transform((s) => s.replace(/^@/, "").toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9._]{1,64}$/, "must be a handle: letters, digits, dots and underscores, up to 64"));
export const ZFollowersInput = z
  .object({ handles: z.array(z.string().max(200)).max(100_000).describe("The whole snapshot: handles with or without the leading @; replaces the previous one") })
  .meta({ id: "CourseFollowersInput" });
export const ZFollowersResult = z.object({ count: z.number().int() }).meta({ id: "CourseFollowersResult" });

// ── Ideas ──
export const ZHideIdeaInput = z
  .object({ ideaId: ZId, hidden: z.boolean().default(true).describe("false unhides") })
  .meta({ id: "CourseHideIdeaInput" });
export const ZIdea = z
  .object({ id: ZId, text: z.string(), authorName: z.string(), mine: z.boolean(), createdAt: ZTimestamp })
  .meta({ id: "CourseIdea" });
export const ZAdminIdea = ZIdea.extend({ hidden: z.boolean(), authorEmail: z.string(), courseSlug: ZCourseSlug }).meta({ id: "CourseAdminIdea" });
export const ZIdeaList = z.object({ items: z.array(ZIdea) });
export const ZAdminIdeaList = z.object({ items: z.array(ZAdminIdea), nextCursor: z.string().nullable() });
export const ZIdeaInput = z.object({ text: z.string().trim().min(3, "must be at least 3 characters").max(1000) }).meta({ id: "CourseIdeaInput" });

// ── Coupon audit ──
export const ZCouponParams = z.object({ code: z.string().min(1).max(64) });
export const ZCouponAudit = z
  .object({
    code: z.string(),
    courseSlug: ZCourseSlug,
    email: z.string().describe("The signup the code was made for"),
    mailedAt: ZTimestamp.nullable(),
    mailCount: z.number().int(),
    redeemedAt: ZTimestamp.nullable(),
    redeemedBy: z.object({ userId: ZId, email: z.string().nullable() }).nullable(),
    redeemedFingerprint: z.string().nullable(),
    redeemedIp: z.string().nullable(),
    signupFingerprint: z.string().nullable(),
    signupIp: z.string().nullable(),
  })
  .meta({ id: "CourseCouponAudit" });

// ── Admin log ──
export const ZAdminLogEntry = z.object({
  id: ZId,
  actorId: ZId,
  actorEmail: z.string().nullable(),
  action: z.string(),
  courseSlug: z.string().nullable(),
  target: z.string().nullable(),
  count: z.number().int().describe("How many people the action reached"),
  createdAt: ZTimestamp,
});
export const ZAdminLog = z
  .object({ items: z.array(ZAdminLogEntry).describe("Newest first"), nextCursor: z.string().nullable().describe("Pass as `cursor` for older entries; null on the last page") })
  .meta({ id: "AdminLog" });

// ── Public ──
export const ZPublicCourse = z
  .object({ slug: ZCourseSlug, title: z.string(), startsAt: ZTimestamp, perkDescription: z.string() })
  .meta({ id: "PublicCourse" });
export const ZSignupInput = z
  .object({
    email: z.string().trim().max(320).refine((s) => isCourseEmail(s), "must be an email address"),
    fingerprint: z.string().trim().min(1).max(128).optional().describe("A device fingerprint computed by the page"),
    socialHandle: z.string().trim().max(64).optional(),
  })
  .meta({ id: "CourseSignupInput" });
export const ZSignupResult = z.object({ ok: z.literal(true) }).describe("Always the same answer, whether the address was new or signed up already (no account discovery)");
export const ZRedeemInput = z.object({ code: z.string().trim().min(1).max(64), fingerprint: z.string().trim().min(1).max(128).optional() }).meta({ id: "CourseRedeemInput" });
export const ZRedeemResult = z.object({ courseSlug: ZCourseSlug, creditedCents: z.number().int() }).meta({ id: "CourseRedeemResult" });

// ── Administrators ──
export const ZSetAdminInput = z
  .object({
    email: z.string().trim().max(320).refine((s) => isCourseEmail(s.toLowerCase()), "must be an email address"),
    isAdmin: z.boolean(),
  })
  .meta({ id: "SetAdminInput" });
export const ZSetAdminResult = z.object({ userId: ZId, email: z.string(), isAdmin: z.boolean() }).meta({ id: "SetAdminResult" });
