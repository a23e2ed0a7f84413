import { z } from "zod";
import { defineJob } from "../jobs/define.ts";
import { runtime } from "../runtime.ts";

/**
 * One mail, sent in the background with retries: for mail nobody waits for (invites, course
 * mailings). Safe to run twice: the send is one effect (ctx.once), and its key goes to Resend as
 * the Idempotency-Key (the outbox names the file by it), so even a crash between the send and its
 * record sends nothing twice. Job data is stored (database or Redis) until the job finishes: never
 * put a sign-in link or another secret in it (sign-in mail is sent in the request, auth.ts).
 */
export const sendMailJob = defineJob(
  "mail.send",
  z.object({
    to: z.email(),
    subject: z.string().min(1).max(998),
    text: z.string().max(200_000),
    html: z.string().max(500_000).optional(),
  }),
  async (mail, ctx) => {
    await ctx.once("send", (idempotencyKey) => runtime().mailer.send(mail, { idempotencyKey }));
  },
  { attempts: 8, backoffMs: 5_000 },
);
