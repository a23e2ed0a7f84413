// The course bulk-mail job (see mail-run.ts for how a run is started and why it is resumable).
// Kept apart from mail-run.ts, which queues it: the job list (server/jobs/registry.ts) imports
// this file, and it imports nothing that imports the jobs module.
import { z } from "zod";
import type { RUN_KINDS } from "../../../lib/schemas/courses.ts";
import { escapeHtml, type Mail } from "../../email/mailer.ts";
import { defineJob } from "../../jobs/define.ts";
import { log } from "../../log.ts";
import { db, runtime } from "../../runtime.ts";

export type RunKind = (typeof RUN_KINDS)[number];
const MAX_ATTEMPTS = 3;
const BATCH = 100;

type RunRow = NonNullable<Awaited<ReturnType<ReturnType<typeof db>["courseMailRun"]["findUnique"]>>>;

export function serializeRun(r: RunRow) {
  return {
    id: r.id,
    kind: r.kind as RunKind,
    resend: r.resend,
    state: r.state as "queued" | "running" | "done",
    total: r.total,
    sent: r.sent,
    failed: r.failed,
    createdById: r.createdById,
    createdAt: r.createdAt.getTime(),
    finishedAt: r.finishedAt ? r.finishedAt.getTime() : null,
  };
}

// ── Messages ──

type CourseForMail = { title: string; slug: string; startsAt: Date; attendeeCode: string | null; attendeeCodeEnd: Date | null; perkDescription: string };

function courseMail(kind: RunKind, to: string, c: CourseForMail, extra: { code?: string; appUrl: string }): Mail {
  const when = c.startsAt.toISOString().replace("T", " ").slice(0, 16) + " UTC";
  const page = `${extra.appUrl}/courses/${c.slug}`;
  const lines: Record<RunKind, { subject: string; text: string }> = {
    coupons: {
      subject: `Your coupon for ${c.title}`,
      text: `Thank you for signing up for ${c.title}.\n\nYour coupon code: ${extra.code}\n\nRedeem it once, signed in, on ${page}.${c.perkDescription ? `\n\nIt gives you: ${c.perkDescription}` : ""}`,
    },
    day: { subject: `${c.title} starts tomorrow`, text: `A reminder: ${c.title} starts tomorrow, ${when}.\n\n${page}` },
    start: { subject: `${c.title} is starting`, text: `${c.title} is starting now (${when}).\n\n${page}` },
    last: {
      subject: `Your attendee code for ${c.title}`,
      text: `Your attendee code for ${c.title}: ${c.attendeeCode}${c.attendeeCodeEnd ? `\n\nIt works until ${c.attendeeCodeEnd.toISOString().replace("T", " ").slice(0, 16)} UTC.` : ""}\n\n${page}`,
    },
  };
  const { subject, text } = lines[kind];
  return { to, subject, text, html: text.split("\n\n").map((p) => `<p>${escapeHtml(p)}</p>`).join("") };
}

// ── The job ──

async function publishProgress(run: RunRow, audience: string[]) {
  runtime().bus.publish({ type: "course.mail", userId: run.createdById, audience, data: { courseId: run.courseId, run: serializeRun(run) } });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const courseMailRunJob = defineJob(
  "course.mail-run",
  z.object({ runId: z.string() }),
  async ({ runId }) => {
    const p = db();
    const first = await p.courseMailRun.findUnique({ where: { id: runId }, include: { course: true } });
    if (!first || first.state === "done") return;
    const course = first.course;
    await p.courseMailRun.update({ where: { id: runId }, data: { state: "running" } });
    const admins = (await p.user.findMany({ where: { isAdmin: true }, select: { id: true } })).map((u) => u.id);
    const gapMs = 1000 / runtime().config.courseMailPerSecond;
    const appUrl = runtime().config.appUrl;
    let lastPublish = 0;
    for (;;) {
      const batch = await p.courseMailRecipient.findMany({
        where: { runId, status: { in: ["pending", "sending"] } },
        orderBy: [{ attempts: "asc" }, { id: "asc" }],
        take: BATCH,
      });
      if (batch.length === 0) break;
      for (const rec of batch) {
        const started = Date.now();
        // The claim, committed before the send.
        await p.courseMailRecipient.update({ where: { id: rec.id }, data: { status: "sending", attempts: { increment: 1 }, claimedAt: new Date() } });
        let code: string | undefined;
        if (first.kind === "coupons") code = (await p.courseCoupon.findUnique({ where: { signupId: rec.signupId }, select: { code: true } }))?.code;
        try {
          if (first.kind === "coupons" && !code) throw new Error("the signup has no coupon");
          await runtime().mailer.send(courseMail(first.kind as RunKind, rec.email, course, { code, appUrl }), { idempotencyKey: `course-mail:${rec.id}` });
          await p.$transaction([
            p.courseMailRecipient.update({ where: { id: rec.id }, data: { status: "sent", sentAt: new Date(), reason: null } }),
            p.courseMailRun.update({ where: { id: runId }, data: { sent: { increment: 1 } } }),
            ...(first.kind === "coupons" ? [p.courseCoupon.update({ where: { signupId: rec.signupId }, data: { mailedAt: new Date(), mailCount: { increment: 1 } } })] : []),
          ]);
        } catch (e) {
          const reason = (e instanceof Error ? e.message : String(e)).slice(0, 500);
          const last = rec.attempts + 1 >= MAX_ATTEMPTS;
          log.warn("course mail refused", { runId, recipient: rec.id, reason, final: last });
          await p.$transaction([
            p.courseMailRecipient.update({ where: { id: rec.id }, data: { status: last ? "failed" : "pending", reason } }),
            ...(last ? [p.courseMailRun.update({ where: { id: runId }, data: { failed: { increment: 1 } } })] : []),
          ]);
        }
        if (Date.now() - lastPublish > 250) {
          lastPublish = Date.now();
          const now = await p.courseMailRun.findUnique({ where: { id: runId } });
          if (now) await publishProgress(now, admins);
        }
        const wait = gapMs - (Date.now() - started);
        if (wait > 0) await sleep(wait);
      }
    }
    const done = await p.courseMailRun.update({ where: { id: runId }, data: { state: "done", finishedAt: new Date() } });
    await publishProgress(done, admins);
  },
  { attempts: 10, backoffMs: 5_000 },
);

