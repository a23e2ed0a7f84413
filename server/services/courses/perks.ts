// The course perk: a credit grant through the billing ledger, once per (course, user). Apart from
// courses.ts so the perk job (perk-job.ts, in the job list) imports nothing that imports the jobs module.
import type { PrismaClient } from "../../db/generated/client.ts";
import { db } from "../../runtime.ts";
import { TX_OPTIONS, post } from "../billing/ledger.ts";

type CourseRow = NonNullable<Awaited<ReturnType<ReturnType<typeof db>["course"]["findUnique"]>>>;

/**
 * Grants the course's perk to one user, once: the grant row's unique (course, user) is inserted
 * with ON CONFLICT DO NOTHING (a concurrent second grant waits for the first and then inserts
 * nothing), and the credit is posted in the same transaction with a unique ledger reference.
 */
export async function grantPerk(course: CourseRow, user: { id: string; email: string }, p: PrismaClient = db()): Promise<boolean> {
  return p.$transaction(async (tx) => {
    const { count } = await tx.coursePerkGrant.createMany({
      data: [{ courseId: course.id, userId: user.id, email: user.email, amountCents: course.perkCreditCents }],
      skipDuplicates: true,
    });
    if (count === 0) return false;
    if (course.perkCreditCents > 0) {
      const posted = await post(tx, user.id, {
        amountCents: course.perkCreditCents,
        kind: "grant",
        description: `Course perk: ${course.title}`,
        reference: `course-perk:${course.id}:${user.id}`,
      });
      await tx.coursePerkGrant.update({ where: { courseId_userId: { courseId: course.id, userId: user.id } }, data: { ledgerId: posted.id } });
    }
    return true;
  }, TX_OPTIONS);
}

/** Grants the perk to every signup with an account; returns the counts. Safe to run twice, or at once. */
export async function grantPerksToCourse(course: CourseRow) {
  const p = db();
  const emails = (await p.courseSignup.findMany({ where: { courseId: course.id }, select: { email: true } })).map((s) => s.email);
  const users = emails.length ? await p.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true } }) : [];
  let granted = 0;
  for (const user of users) if (await grantPerk(course, user)) granted++;
  return { granted, alreadyGranted: users.length - granted, withoutAccount: emails.length - users.length };
}

/**
 * A user signed in (perhaps with a new account): the perks of the open courses they signed up for.
 * Called by auth.ts's signIn event with the server's database (the Next bundle has no runtime()).
 */
export async function grantOpenPerksTo(userId: string, p: PrismaClient = db()): Promise<number> {
  const user = await p.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
  if (!user) return 0;
  const signups = await p.courseSignup.findMany({ where: { email: user.email.toLowerCase(), course: { perkOpensAt: { lte: new Date() } } }, include: { course: true } });
  let n = 0;
  for (const s of signups) if (await grantPerk(s.course, user, p)) n++;
  return n;
}

