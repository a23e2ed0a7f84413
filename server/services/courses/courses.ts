// Course administration (SPEC.md §4.8; docs/api.md "Course administration"): courses, eligible
// mailboxes, perks, the abuse audit, followers, ideas, registrations and the admin log. Bulk mail
// (coupons and the three mail kinds) is server/services/courses/mail-run.ts.
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import {
  ZHandle,
  isCourseEmail,
  normalizeEmail,
  type ZCourseInput,
  type ZEligibleInput,
  type ZRegistrationQuery,
} from "../../../lib/schemas/courses.ts";
import type { Caller } from "../../auth/caller.ts";
import { Prisma } from "../../db/generated/client.ts";
import { lockRow } from "../../db/lock.ts";
import { ApiError } from "../../http/errors.ts";
import { enqueue } from "../../jobs/enqueue.ts";
import { log } from "../../log.ts";
import { db, runtime } from "../../runtime.ts";
import { TX_OPTIONS } from "../billing/ledger.ts";
import { grantPerk, grantPerksToCourse } from "./perks.ts";
import { coursePerkOpenJob } from "./perk-job.ts";
import { keysetAfter, keysetOrder, keysetPage } from "../../db/keyset.ts";
import { likePattern } from "../../db/like.ts";

type Tx = Prisma.TransactionClient;
type CourseRow = NonNullable<Awaited<ReturnType<ReturnType<typeof db>["course"]["findUnique"]>>>;

const ms = (d: Date | null | undefined) => (d ? d.getTime() : null);

export async function courseBySlug(slug: string): Promise<CourseRow> {
  const course = await db().course.findUnique({ where: { slug } });
  if (!course) throw new ApiError("NOT_FOUND", `No course "${slug}"`);
  return course;
}

/** One line of the admin log: who did what, on which course, reaching how many people. */
export async function logAdmin(
  actorId: string,
  entry: { action: string; courseId?: string | null; target?: string | null; count?: number; data?: Record<string, unknown> },
  tx: Tx = db(),
): Promise<void> {
  await tx.adminAuditLog.create({
    data: { actorId, action: entry.action, courseId: entry.courseId ?? null, target: entry.target ?? null, count: entry.count ?? 0, data: (entry.data ?? {}) as Prisma.InputJsonValue },
  });
}

// ── Courses ──

export async function courseStats(courseId: string) {
  const p = db();
  // Counted in the database: accounts are matched by email, an EXISTS per signup.
  const [signups, [accounts], couponsMailed, couponsRedeemed, perksGranted] = await Promise.all([
    p.courseSignup.count({ where: { courseId } }),
    p.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "CourseSignup" s WHERE s."courseId" = ${courseId} AND EXISTS (SELECT 1 FROM "User" u WHERE u."email" = s."email")`,
    p.courseCoupon.count({ where: { courseId, mailedAt: { not: null } } }),
    p.courseCoupon.count({ where: { courseId, redeemedAt: { not: null } } }),
    p.coursePerkGrant.count({ where: { courseId } }),
  ]);
  return { signups, withAccount: Number(accounts?.n ?? 0), couponsMailed, couponsRedeemed, perksGranted };
}

export function serializeCourse(c: CourseRow) {
  return {
    id: c.id,
    slug: c.slug,
    title: c.title,
    startsAt: c.startsAt.getTime(),
    attendeeCodeEnd: ms(c.attendeeCodeEnd),
    perkOpensAt: ms(c.perkOpensAt),
    perkCreditCents: c.perkCreditCents,
    perkDescription: c.perkDescription,
    createdAt: c.createdAt.getTime(),
  };
}

export async function adminCourse(c: CourseRow) {
  return { ...serializeCourse(c), attendeeCode: c.attendeeCode, stats: await courseStats(c.id) };
}

/** Courses, latest start first, a keyset page at a time (`cursor`: the previous page's `nextCursor`). */
export async function listCourses(page: { limit: number; cursor?: string } = { limit: 50 }) {
  const read = await db().course.findMany({ where: keysetAfter(page.cursor, "startsAt"), orderBy: keysetOrder("startsAt"), take: page.limit + 1 });
  const { page: rows, nextCursor } = keysetPage(read, page.limit, "startsAt");
  return { items: await Promise.all(rows.map(adminCourse)), nextCursor };
}

/** Creates the course, or updates the one with this slug; queues the perk's opening. */
export async function upsertCourse(caller: Caller, slug: string, input: z.output<typeof ZCourseInput>) {
  const data = {
    title: input.title,
    startsAt: new Date(input.startsAt),
    attendeeCode: input.attendeeCode ?? null,
    attendeeCodeEnd: input.attendeeCodeEnd == null ? null : new Date(input.attendeeCodeEnd),
    perkOpensAt: input.perkOpensAt == null ? null : new Date(input.perkOpensAt),
    perkCreditCents: input.perkCreditCents,
    perkDescription: input.perkDescription,
  };
  const course = await db().$transaction(async (tx) => {
    const c = await tx.course.upsert({ where: { slug }, create: { slug, ...data }, update: data });
    await logAdmin(caller.userId, { action: "course.save", courseId: c.id, target: c.slug }, tx);
    return c;
  });
  await schedulePerkOpening(course);
  return adminCourse(course);
}

export async function schedulePerkOpening(course: { id: string; perkOpensAt: Date | null }): Promise<void> {
  if (!course.perkOpensAt) return;
  const at = course.perkOpensAt.getTime();
  try {
    await enqueue(coursePerkOpenJob, { courseId: course.id, at }, { key: `${course.id}@${at}`, delay: Math.max(0, at - Date.now()) });
  } catch (e) {
    // The course is saved; the next save (or a sign-in, grantOpenPerksTo) grants it.
    log.error("could not queue the perk opening", { courseId: course.id, error: e instanceof Error ? e.message : String(e) });
  }
}

// ── Eligible ──

export async function addEligible(caller: Caller, slug: string, input: z.output<typeof ZEligibleInput>) {
  const course = await courseBySlug(slug);
  const rejected: string[] = [];
  const valid = new Set<string>();
  for (const raw of input.emails) {
    const email = normalizeEmail(raw);
    if (isCourseEmail(email)) valid.add(email);
    else rejected.push(raw);
  }
  if (rejected.length && !input.skipInvalid) {
    throw new ApiError("BAD_REQUEST", `${rejected.length} invalid email address(es); nothing was applied (send skipInvalid=true to apply the valid ones)`, {
      invalid: rejected,
      valid: valid.size,
    });
  }
  const emails = [...valid];
  return db().$transaction(async (tx) => {
    const known = new Set((await tx.courseSignup.findMany({ where: { courseId: course.id, email: { in: emails } }, select: { email: true } })).map((s) => s.email));
    await tx.courseEligible.createMany({ data: emails.map((email) => ({ courseId: course.id, email, note: input.note, addedById: caller.userId })), skipDuplicates: true });
    const { count } = await tx.courseSignup.createMany({ data: emails.filter((e) => !known.has(e)).map((email) => ({ courseId: course.id, email, source: "eligible" })), skipDuplicates: true });
    const added = emails.filter((e) => !known.has(e));
    await logAdmin(caller.userId, { action: "course.eligible", courseId: course.id, count, data: { added: added.length, alreadyListed: known.size, rejected: rejected.length, note: input.note } }, tx);
    return { added, alreadyListed: emails.filter((e) => known.has(e)), rejected };
  });
}

// ── Perks ──

export async function grantPerks(caller: Caller, slug: string) {
  const course = await courseBySlug(slug);
  const result = await grantPerksToCourse(course);
  await logAdmin(caller.userId, { action: "course.perks", courseId: course.id, count: result.granted, data: result });
  return result;
}

// ── Registrations ──

/** LIKE '%text%' for the text as typed: `%`, `_` and `\\` escaped (see containsText). */

/**
 * The course's registrations matching the filters, oldest first, `limit` from `offset`, and how
 * many match in all. Filtered, counted and paged in the database (the account and the perk grant
 * are matched by email, so those two filters are EXISTS subqueries); only the page's rows are read.
 */
export async function listRegistrations(slug: string, q: z.output<typeof ZRegistrationQuery>) {
  const course = await courseBySlug(slug);
  const p = db();
  const flag = (on: boolean | undefined, yes: Prisma.Sql, no: Prisma.Sql) => (on === undefined ? [] : [on ? yes : no]);
  const account = Prisma.sql`EXISTS (SELECT 1 FROM "User" u WHERE u."email" = s."email")`;
  const granted = Prisma.sql`EXISTS (SELECT 1 FROM "CoursePerkGrant" g WHERE g."courseId" = s."courseId" AND g."email" = s."email")`;
  const where = Prisma.join(
    [
      Prisma.sql`s."courseId" = ${course.id}`,
      ...(q.q ? [Prisma.sql`(s."email" LIKE ${likePattern(q.q.toLowerCase())} OR s."fingerprint" LIKE ${likePattern(q.q)} OR s."ip" LIKE ${likePattern(q.q)})`] : []),
      ...flag(q.mailed, Prisma.sql`c."mailedAt" IS NOT NULL`, Prisma.sql`c."mailedAt" IS NULL`),
      ...flag(q.redeemed, Prisma.sql`c."redeemedAt" IS NOT NULL`, Prisma.sql`c."redeemedAt" IS NULL`),
      ...flag(q.hasAccount, account, Prisma.sql`NOT ${account}`),
      ...flag(q.claimed, granted, Prisma.sql`NOT ${granted}`),
    ],
    " AND ",
  );
  const from = Prisma.sql`FROM "CourseSignup" s LEFT JOIN "CourseCoupon" c ON c."signupId" = s."id" WHERE ${where}`;
  const [[counted], ids] = await Promise.all([
    p.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total ${from}`,
    p.$queryRaw<{ id: string }[]>`SELECT s."id" ${from} ORDER BY s."createdAt" ASC, s."id" ASC LIMIT ${q.limit} OFFSET ${q.offset}`,
  ]);
  const order = new Map(ids.map((r, i) => [r.id, i]));
  const signups = (ids.length ? await p.courseSignup.findMany({ where: { id: { in: ids.map((r) => r.id) } }, include: { coupon: true } }) : []).sort(
    (a, b) => order.get(a.id)! - order.get(b.id)!,
  );
  // Accounts and grants of the page's addresses only.
  const emails = signups.map((s) => s.email);
  const [accounts, grants] = emails.length
    ? await Promise.all([
        p.user.findMany({ where: { email: { in: emails } }, select: { email: true } }).then((us) => new Set(us.map((u) => u.email))),
        p.coursePerkGrant.findMany({ where: { courseId: course.id, email: { in: emails } } }).then((gs) => new Map(gs.map((g) => [g.email, g.createdAt]))),
      ])
    : [new Set<string>(), new Map<string, Date>()];
  const items = signups.map((s) => ({
    id: s.id,
    email: s.email,
    source: s.source === "eligible" ? ("eligible" as const) : ("signup" as const),
    fingerprint: s.fingerprint,
    ip: s.ip,
    socialHandle: s.socialHandle,
    hasAccount: accounts.has(s.email),
    couponMailedAt: ms(s.coupon?.mailedAt),
    couponRedeemedAt: ms(s.coupon?.redeemedAt),
    perkClaimedAt: ms(grants.get(s.email)),
    createdAt: s.createdAt.getTime(),
  }));
  return { items, total: Number(counted?.total ?? 0) };
}

// ── Audit and followers ──

/** The audit's bounds: the biggest clusters, the first members of each, the first redeemers (each answer says how many there are in all). */
export const AUDIT_CLUSTERS = 100;
export const AUDIT_MEMBERS = 100;
export const AUDIT_REDEEMERS = 1000;

/**
 * Clusters found by GROUP BY in the database (only their members are read, up to AUDIT_MEMBERS
 * each), the biggest AUDIT_CLUSTERS of them; the first AUDIT_REDEEMERS redeemers. Each cluster's
 * `size` and `redeemerCount` say how many there are in all.
 */
export async function courseAudit(slug: string) {
  const course = await courseBySlug(slug);
  const p = db();
  const groups = await p.$queryRaw<{ by: "fingerprint" | "ip"; value: string; size: bigint }[]>`
    SELECT * FROM (
      SELECT 'fingerprint' AS "by", s."fingerprint" AS "value", count(*) AS "size" FROM "CourseSignup" s
        WHERE s."courseId" = ${course.id} AND s."fingerprint" IS NOT NULL GROUP BY s."fingerprint" HAVING count(*) > 1
      UNION ALL
      SELECT 'ip' AS "by", s."ip" AS "value", count(*) AS "size" FROM "CourseSignup" s
        WHERE s."courseId" = ${course.id} AND s."ip" IS NOT NULL GROUP BY s."ip" HAVING count(*) > 1
    ) g ORDER BY g."size" DESC, g."value" ASC, g."by" ASC LIMIT ${AUDIT_CLUSTERS}`;
  const include = { coupon: { select: { redeemedAt: true } } } as const;
  const order = [{ createdAt: "asc" as const }, { id: "asc" as const }];
  const [memberLists, redeemers, redeemerCount, followers] = await Promise.all([
    Promise.all(groups.map((g) => p.courseSignup.findMany({ where: { courseId: course.id, [g.by]: g.value }, include, orderBy: order, take: AUDIT_MEMBERS }))),
    p.courseSignup.findMany({ where: { courseId: course.id, coupon: { redeemedAt: { not: null } } }, include, orderBy: order, take: AUDIT_REDEEMERS }),
    p.courseCoupon.count({ where: { courseId: course.id, redeemedAt: { not: null } } }),
    p.courseFollower.count({ where: { courseId: course.id } }),
  ]);
  // Whether a redeemer follows the Page: their handles looked up in the snapshot, not the snapshot read.
  const handleOf = (h: string | null) => (h ? h.replace(/^@/, "").toLowerCase() : null);
  const handles = [...new Set([...memberLists.flat(), ...redeemers].filter((s) => s.coupon?.redeemedAt).map((s) => handleOf(s.socialHandle)).filter((h): h is string => !!h))];
  const following = new Set(
    handles.length ? (await p.courseFollower.findMany({ where: { courseId: course.id, handle: { in: handles } }, select: { handle: true } })).map((f) => f.handle) : [],
  );
  type Signup = (typeof redeemers)[number];
  const member = (s: Signup) => {
    const redeemed = !!s.coupon?.redeemedAt;
    const handle = handleOf(s.socialHandle);
    return { email: s.email, fingerprint: s.fingerprint, ip: s.ip, socialHandle: s.socialHandle, redeemed, followsPage: redeemed ? handle !== null && following.has(handle) : null };
  };
  return {
    clusters: groups.map((g, i) => ({ by: g.by, value: g.value, size: Number(g.size), members: memberLists[i]!.map(member) })),
    redeemers: redeemers.map(member),
    redeemerCount,
    followerSnapshot: { count: followers },
  };
}

export async function setFollowers(caller: Caller, slug: string, handles: string[]) {
  const course = await courseBySlug(slug);
  const invalid: string[] = [];
  const valid = new Set<string>();
  for (const h of handles) {
    const r = ZHandle.safeParse(h);
    if (r.success) valid.add(r.data);
    else invalid.push(h);
  }
  if (invalid.length) throw new ApiError("BAD_REQUEST", `${invalid.length} invalid handle(s); the snapshot was not replaced`, { invalid: invalid.slice(0, 1000) });
  await db().$transaction(async (tx) => {
    await tx.courseFollower.deleteMany({ where: { courseId: course.id } });
    await tx.courseFollower.createMany({ data: [...valid].map((handle) => ({ courseId: course.id, handle })) });
    await logAdmin(caller.userId, { action: "course.followers", courseId: course.id, count: valid.size }, tx);
  }, TX_OPTIONS);
  return { count: valid.size };
}

// ── Ideas ──

async function authors(ids: string[]) {
  const users = ids.length ? await db().user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } }) : [];
  return new Map(users.map((u) => [u.id, u]));
}

const publicName = (u: { name: string | null; email: string } | undefined) => u?.name?.trim() || (u ? u.email.split("@")[0]! : "someone");

export async function listIdeas(caller: Caller, slug: string) {
  const course = await courseBySlug(slug);
  const rows = await db().courseIdea.findMany({ where: { courseId: course.id, hidden: false }, orderBy: { createdAt: "desc" }, take: 500 });
  const by = await authors([...new Set(rows.map((r) => r.authorId))]);
  return { items: rows.map((r) => ({ id: r.id, text: r.text, authorName: publicName(by.get(r.authorId)), mine: r.authorId === caller.userId, createdAt: r.createdAt.getTime() })) };
}

export async function submitIdea(caller: Caller, slug: string, text: string) {
  const course = await courseBySlug(slug);
  // Counted and written under the author's row lock: a burst of submissions cannot all count 19.
  const r = await db().$transaction(async (tx) => {
    await lockRow(tx, "User", caller.userId);
    const recent = await tx.courseIdea.count({ where: { courseId: course.id, authorId: caller.userId, createdAt: { gt: new Date(Date.now() - 3_600_000) } } });
    if (recent >= 20) throw new ApiError("TOO_MANY_REQUESTS", "At most 20 ideas an hour");
    return tx.courseIdea.create({ data: { courseId: course.id, authorId: caller.userId, text } });
  });
  return { id: r.id, text: r.text, authorName: publicName((await authors([caller.userId])).get(caller.userId)), mine: true, createdAt: r.createdAt.getTime() };
}

/** Every idea of the course, hidden ones included, newest first, a keyset page at a time. */
export async function adminListIdeas(slug: string, page: { limit: number; cursor?: string } = { limit: 50 }) {
  const course = await courseBySlug(slug);
  const read = await db().courseIdea.findMany({ where: { courseId: course.id, ...keysetAfter(page.cursor, "createdAt") }, orderBy: keysetOrder("createdAt"), take: page.limit + 1 });
  const { page: rows, nextCursor } = keysetPage(read, page.limit, "createdAt");
  const by = await authors([...new Set(rows.map((r) => r.authorId))]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      text: r.text,
      authorName: publicName(by.get(r.authorId)),
      authorEmail: by.get(r.authorId)?.email ?? "",
      mine: false,
      hidden: r.hidden,
      courseSlug: course.slug,
      createdAt: r.createdAt.getTime(),
    })),
    nextCursor,
  };
}

export async function hideIdea(caller: Caller, ideaId: string, hidden: boolean) {
  const idea = await db().courseIdea.findUnique({ where: { id: ideaId }, include: { course: { select: { slug: true } } } });
  if (!idea) throw new ApiError("NOT_FOUND", "No such idea");
  await db().$transaction(async (tx) => {
    await tx.courseIdea.update({ where: { id: ideaId }, data: { hidden } });
    await logAdmin(caller.userId, { action: hidden ? "idea.hide" : "idea.unhide", courseId: idea.courseId, target: ideaId, count: 1 }, tx);
  });
  const by = await authors([idea.authorId]);
  return {
    id: idea.id,
    text: idea.text,
    authorName: publicName(by.get(idea.authorId)),
    authorEmail: by.get(idea.authorId)?.email ?? "",
    mine: false,
    hidden,
    courseSlug: idea.course.slug,
    createdAt: idea.createdAt.getTime(),
  };
}

// ── Coupons ──

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export function newCouponCode(): string {
  const bytes = randomBytes(12);
  let s = "";
  for (const b of bytes) s += CODE_ALPHABET[b % CODE_ALPHABET.length];
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}`;
}

/** A code for every signup of the course that has none (one per signup, unique). */
export async function ensureCoupons(tx: Tx, courseId: string): Promise<void> {
  const missing = await tx.courseSignup.findMany({ where: { courseId, coupon: null }, select: { id: true } });
  if (missing.length) await tx.courseCoupon.createMany({ data: missing.map((s) => ({ courseId, signupId: s.id, code: newCouponCode() })), skipDuplicates: true });
}

export async function couponAudit(code: string) {
  const c = await db().courseCoupon.findUnique({ where: { code: code.toUpperCase() }, include: { signup: true, course: { select: { slug: true } } } });
  if (!c) throw new ApiError("NOT_FOUND", "No such coupon code");
  const by = c.redeemedById ? await db().user.findUnique({ where: { id: c.redeemedById }, select: { email: true } }) : null;
  return {
    code: c.code,
    courseSlug: c.course.slug,
    email: c.signup.email,
    mailedAt: ms(c.mailedAt),
    mailCount: c.mailCount,
    redeemedAt: ms(c.redeemedAt),
    redeemedBy: c.redeemedById ? { userId: c.redeemedById, email: by?.email ?? null } : null,
    redeemedFingerprint: c.redeemedFingerprint,
    redeemedIp: c.redeemedIp,
    signupFingerprint: c.signup.fingerprint,
    signupIp: c.signup.ip,
  };
}

/** Redeems a code once, for the signed-in caller: the course perk is granted through the ledger. */
export { grantOpenPerksTo, grantPerk, grantPerksToCourse } from "./perks.ts";

export async function redeemCoupon(caller: Caller, code: string, device: { fingerprint?: string; ip: string | null }) {
  const p = db();
  const coupon = await p.courseCoupon.findUnique({ where: { code: code.trim().toUpperCase() }, include: { course: true } });
  if (!coupon) throw new ApiError("NOT_FOUND", "No such coupon code");
  const { count } = await p.courseCoupon.updateMany({
    where: { id: coupon.id, redeemedAt: null },
    data: { redeemedAt: new Date(), redeemedById: caller.userId, redeemedFingerprint: device.fingerprint ?? null, redeemedIp: device.ip },
  });
  if (count === 0) throw new ApiError("CONFLICT", "This code has been redeemed already");
  const granted = await grantPerk(coupon.course, { id: caller.userId, email: caller.email });
  return { courseSlug: coupon.course.slug, creditedCents: granted ? coupon.course.perkCreditCents : 0 };
}

// ── Admin log ──

export async function adminLog(opts: { courseSlug?: string; limit: number; cursor?: string }) {
  const course = opts.courseSlug ? await courseBySlug(opts.courseSlug) : null;
  const read = await db().adminAuditLog.findMany({
    where: { ...(course ? { courseId: course.id } : {}), ...keysetAfter(opts.cursor, "createdAt") },
    orderBy: keysetOrder("createdAt"),
    take: opts.limit + 1,
  });
  const { page: rows, nextCursor } = keysetPage(read, opts.limit, "createdAt");
  const [actors, courses] = await Promise.all([
    db().user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.actorId))] } }, select: { id: true, email: true } }),
    db().course.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.courseId).filter((x): x is string => !!x))] } }, select: { id: true, slug: true } }),
  ]);
  const actor = new Map(actors.map((a) => [a.id, a.email]));
  const slugOf = new Map(courses.map((c) => [c.id, c.slug]));
  return {
    items: rows.map((r) => ({
      id: r.id,
      actorId: r.actorId,
      actorEmail: actor.get(r.actorId) ?? null,
      action: r.action,
      courseSlug: r.courseId ? (slugOf.get(r.courseId) ?? null) : null,
      target: r.target,
      count: r.count,
      createdAt: r.createdAt.getTime(),
    })),
    nextCursor,
  };
}

// ── Administrators ──

/** Makes an existing account an administrator, or not; an administrator cannot demote themself (no lock-out). */
export async function setAdmin(caller: Caller, email: string, isAdmin: boolean) {
  const normalized = normalizeEmail(email);
  const user = await db().user.findUnique({ where: { email: normalized }, select: { id: true, email: true } });
  if (!user) throw new ApiError("NOT_FOUND", "No account has this email; the person signs in once first");
  if (user.id === caller.userId && !isAdmin) throw new ApiError("CONFLICT", "You cannot remove your own administrator role");
  await db().$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { isAdmin } });
    await logAdmin(caller.userId, { action: isAdmin ? "admin.grant" : "admin.revoke", target: user.email, count: 1 }, tx);
  });
  // Every process forgets what it cached of the user's credentials: the change holds at once.
  await runtime().bus.affect({ kind: "caller.changed", userId: user.id });
  return { userId: user.id, email: user.email, isAdmin };
}
