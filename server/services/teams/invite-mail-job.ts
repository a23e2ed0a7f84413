import { z } from "zod";
import { teamInviteMail } from "../../email/templates.ts";
import { defineJob } from "../../jobs/define.ts";
import { db, runtime } from "../../runtime.ts";
import { inviteToken } from "./tokens.ts";

/**
 * The invite mail, in the background with retries. Its data is the invite's id only: the link is
 * rebuilt from the stored salt (tokens.ts), so no token sits in the job queue, and the effect's
 * stored result is the mail's id, not its text. An invite revoked, accepted or expired before the
 * job runs sends nothing.
 */
export const teamInviteMailJob = defineJob(
  "team.invite-mail",
  z.object({ inviteId: z.string().min(1) }),
  async ({ inviteId }, ctx) => {
    const invite = await db().teamInvite.findUnique({
      where: { id: inviteId },
      include: { team: { select: { name: true } }, invitedBy: { select: { name: true, email: true } } },
    });
    if (!invite || invite.status !== "pending" || invite.expiresAt <= new Date()) return;
    const url = `${runtime().config.appUrl}/invite/${inviteToken(invite.id, invite.tokenSalt)}`;
    const mail = teamInviteMail(invite.email, { url, teamName: invite.team.name, inviter: invite.invitedBy.name ?? invite.invitedBy.email, expiresAt: invite.expiresAt });
    await ctx.once("send", async (idempotencyKey) => {
      const sent = await runtime().mailer.send(mail, { idempotencyKey });
      return { id: sent.id };
    });
  },
  { attempts: 8, backoffMs: 5_000 },
);
