// Bulk mail of a course (coupons, and the `day`, `start`, `last` mails) as a resumable job.
//
// Starting a run writes the run and one CourseMailRecipient row per recipient in one transaction,
// then queues `course.mail-run` with the run's id as its key. The job sends one recipient at a time:
//   1. claims the row (status `sending`, attempts + 1) — committed before the send;
//   2. sends with the idempotency key `course-mail:<recipient id>` (Resend's Idempotency-Key; the
//      outbox writes one file per key);
//   3. marks it `sent` (and the coupon mailed) in one transaction.
// A crash anywhere leaves the row `pending` or `sending`; the resumed job sends `sending` rows again
// with the same key, which the provider answers without a second message. Nobody is mailed twice,
// nobody is skipped. A provider refusal is kept as `reason`; after MAX_ATTEMPTS the row is `failed`.
import type { MAIL_KINDS } from "../../../lib/schemas/courses.ts";
import type { Caller } from "../../auth/caller.ts";
import { Prisma } from "../../db/generated/client.ts";
import { lockRow } from "../../db/lock.ts";
import { ApiError } from "../../http/errors.ts";
import { enqueue } from "../../jobs/enqueue.ts";
import { keysetAfter, keysetOrder, keysetPage } from "../../db/keyset.ts";
import { db } from "../../runtime.ts";
import { courseBySlug, ensureCoupons, logAdmin } from "./courses.ts";
import { courseMailRunJob, serializeRun, type RunKind } from "./mail-run-job.ts";

export { courseMailRunJob, serializeRun, type RunKind };

/**
 * Starts a run: coupons go to signups whose coupon was never mailed, a mail kind to signups no
 * earlier run of that kind reached; `resend` takes every signup. A run of the same kind still going
 * is 409 (its id in `data.runId`). A run with nobody to reach is stored as done at once.
 */
export async function startMailRun(caller: Caller, slug: string, kind: RunKind, resend: boolean) {
  const course = await courseBySlug(slug);
  if (kind === "last" && !course.attendeeCode) throw new ApiError("CONFLICT", "The course has no attendee code to send");
  const run = await db().$transaction(
    async (tx) => {
      // One run per (course, kind) at a time: the course row's lock orders concurrent starts.
      await lockRow(tx, "Course", course.id);
      const going = await tx.courseMailRun.findFirst({ where: { courseId: course.id, kind, state: { in: ["queued", "running"] } } });
      if (going) throw new ApiError("CONFLICT", `A ${kind} mailing of this course is still running`, { runId: going.id });
      if (kind === "coupons") await ensureCoupons(tx, course.id);
      // The recipients are chosen and written by the database in one statement, whatever the
      // course's size: nobody's row passes through the server. Their ids follow the signups' order,
      // which is the order the job mails them in.
      const r = await tx.courseMailRun.create({ data: { courseId: course.id, kind, resend, total: 0, createdById: caller.userId } });
      const who = resend
        ? Prisma.empty
        : kind === "coupons"
          ? Prisma.sql`AND EXISTS (SELECT 1 FROM "CourseCoupon" c WHERE c."signupId" = s."id" AND c."mailedAt" IS NULL)`
          : Prisma.sql`AND NOT EXISTS (SELECT 1 FROM "CourseMailRecipient" m JOIN "CourseMailRun" run ON run."id" = m."runId"
                                       WHERE m."signupId" = s."id" AND m."status" = 'sent' AND run."courseId" = ${course.id} AND run."kind" = ${kind})`;
      const total = await tx.$executeRaw`
        INSERT INTO "CourseMailRecipient" ("id", "runId", "signupId", "email")
        SELECT ${r.id} || '-' || lpad((row_number() OVER (ORDER BY s."createdAt", s."id"))::text, 9, '0'), ${r.id}, s."id", s."email"
        FROM "CourseSignup" s WHERE s."courseId" = ${course.id} ${who}`;
      const run = await tx.courseMailRun.update({ where: { id: r.id }, data: { total, ...(total ? {} : { state: "done", finishedAt: new Date() }) } });
      await logAdmin(caller.userId, { action: `course.mail.${kind}`, courseId: course.id, target: r.id, count: total, data: { resend } }, tx);
      return run;
    },
    { maxWait: 15_000, timeout: 60_000 },
  );
  if (run.total > 0) await enqueue(courseMailRunJob, { runId: run.id }, { key: run.id });
  return serializeRun(run);
}

/** The course's runs, newest first, a keyset page at a time (`cursor`: the previous page's `nextCursor`). */
export async function listMailRuns(slug: string, page: { limit: number; cursor?: string } = { limit: 50 }) {
  const course = await courseBySlug(slug);
  const read = await db().courseMailRun.findMany({
    where: { courseId: course.id, ...keysetAfter(page.cursor, "createdAt") },
    orderBy: keysetOrder("createdAt"),
    take: page.limit + 1,
  });
  const { page: rows, nextCursor } = keysetPage(read, page.limit, "createdAt");
  return { items: rows.map(serializeRun), nextCursor };
}

/**
 * The run's failed recipients, the last to fail first (by the time of their last attempt, then
 * id), a keyset page at a time (`cursor`: the previous page's `nextCursor`).
 */
export async function mailRunFailures(slug: string, runId: string, page: { limit: number; cursor?: string } = { limit: 50 }) {
  const course = await courseBySlug(slug);
  const run = await db().courseMailRun.findFirst({ where: { id: runId, courseId: course.id } });
  if (!run) throw new ApiError("NOT_FOUND", "No such mailing of this course");
  const read = await db().courseMailRecipient.findMany({
    where: { runId, status: "failed", ...keysetAfter(page.cursor, "claimedAt") },
    orderBy: keysetOrder("claimedAt"),
    take: page.limit + 1,
  });
  // A failed row was claimed (attempted) at least once: claimedAt is set.
  const { page: rows, nextCursor } = keysetPage(
    read.map((r) => ({ ...r, claimedAt: r.claimedAt ?? new Date(0) })),
    page.limit,
    "claimedAt",
  );
  return { items: rows.map((r) => ({ id: r.id, email: r.email, reason: r.reason, attempts: r.attempts })), nextCursor };
}

export type MailKind = (typeof MAIL_KINDS)[number];
