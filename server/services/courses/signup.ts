// The public course pages: the course itself, the signup (rate-limited per IP by the operation's
// policy), and its confirmation mail (a mail.send job, so a slow provider does not hold the page).
import type { z } from "zod";
import { normalizeEmail, type ZSignupInput } from "../../../lib/schemas/courses.ts";
import { sendMailJob } from "../../email/send-job.ts";
import { escapeHtml } from "../../email/mailer.ts";
import { enqueue } from "../../jobs/enqueue.ts";
import { db, runtime } from "../../runtime.ts";
import { courseBySlug } from "./courses.ts";

export async function publicCourse(slug: string) {
  const c = await courseBySlug(slug);
  return { slug: c.slug, title: c.title, startsAt: c.startsAt.getTime(), perkDescription: c.perkDescription };
}

/** Records the signup; the answer is the same for a new and a known address (nothing to learn from it). */
export async function signUp(slug: string, input: z.output<typeof ZSignupInput>, ip: string | null) {
  const course = await courseBySlug(slug);
  const email = normalizeEmail(input.email);
  const { count } = await db().courseSignup.createMany({
    data: [{ courseId: course.id, email, fingerprint: input.fingerprint ?? null, ip, socialHandle: input.socialHandle?.replace(/^@/, "") || null }],
    skipDuplicates: true,
  });
  if (count === 1) {
    const page = `${runtime().config.appUrl}/courses/${course.slug}`;
    const text = `You are signed up for ${course.title} (${course.startsAt.toISOString().slice(0, 10)}).\n\nWe will mail you your coupon and reminders before it starts.\n\n${page}\n\nIf you did not sign up, ignore this message.`;
    await enqueue(sendMailJob, { to: email, subject: `You are signed up for ${course.title}`, text, html: text.split("\n\n").map((p) => `<p>${escapeHtml(p)}</p>`).join("") });
  }
  return { ok: true as const };
}
