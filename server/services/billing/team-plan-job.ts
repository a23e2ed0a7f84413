import { z } from "zod";
import { enqueue } from "../../jobs/enqueue.ts";
import { defineJob } from "../../jobs/define.ts";
import { log } from "../../log.ts";
import { runtime, type Runtime } from "../../runtime.ts";
import type { TSubscriptionInfo } from "../../../lib/schemas/billing.ts";
import { endPlanPaidByTeam } from "./subscriptions.ts";

/**
 * `billing.end-team-member-plan`: sets the plan of a user who became a member of someone else's
 * team to end at its period's end (endPlanPaidByTeam), with retries, for the joins that cannot wait
 * for Stripe (join by domain at sign-in) and for a request whose own attempt failed. Setting
 * `cancel_at_period_end` twice is the same as once, and a user who left meanwhile keeps their plan.
 */
export const endTeamMemberPlanJob = defineJob(
  "billing.end-team-member-plan",
  z.object({ userId: z.string().min(1) }),
  async ({ userId }) => {
    await endPlanPaidByTeam(userId);
  },
  { attempts: 8, backoffMs: 5_000 },
);

/**
 * Queues the job after the commit that made the user a member of someone else's team, when they
 * have a paid plan; `rt` for callers outside the server's runtime (auth.ts, as joinTeamByDomain).
 * A failure to queue is logged, not the caller's: the team change is committed.
 */
export async function queueEndTeamMemberPlan(userId: string, rt: Pick<Runtime, "prisma" | "jobs"> = runtime()): Promise<void> {
  try {
    if (!(await rt.prisma.subscription.findFirst({ where: { userId, NOT: { tier: "free" } }, select: { userId: true } }))) return;
    await enqueue(endTeamMemberPlanJob, { userId }, { key: userId }, rt.jobs);
  } catch (err) {
    log.error("queueing the end of a team member's own plan failed", { userId, error: String(err) });
  }
}

/**
 * In a request (an invite accepted, a hand-over accepted): the plan is set to end now, so the
 * answer can say so; if Stripe fails, the job tries again and the answer says what is known.
 */
export async function endTeamMemberPlanNow(userId: string): Promise<TSubscriptionInfo | null> {
  try {
    return await endPlanPaidByTeam(userId);
  } catch (err) {
    log.error("ending a team member's own plan failed; queued to retry", { userId, error: String(err) });
    await queueEndTeamMemberPlan(userId);
    return null;
  }
}
