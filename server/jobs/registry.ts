// Every background job the server runs. Add a job here once it is defined (defineJob); a job that
// is not listed cannot be enqueued, and a stored job whose name is missing fails without retries.
import { fireMessageJob } from "../agent/fire-message-job.ts";
import { agentTurnJob } from "../agent/turn-job.ts";
import { replyMailJob } from "../agent/reply-mail.ts";
import { sendMailJob } from "../email/send-job.ts";
import { courseMailRunJob } from "../services/courses/mail-run-job.ts";
import { coursePerkOpenJob } from "../services/courses/perk-job.ts";
import { endTeamMemberPlanJob } from "../services/billing/team-plan-job.ts";
import { stripeEventJob } from "../services/billing/webhook-job.ts";
import { teamInviteMailJob } from "../services/teams/invite-mail-job.ts";
import { embedBackfillJob } from "../services/search/backfill-job.ts";
import { embedJob } from "../services/search/embed-job.ts";
import { stripeCustomerCleanupJob } from "../services/users/stripe-cleanup-job.ts";
import type { JobDefinition } from "./define.ts";

export const jobs: readonly JobDefinition[] = [agentTurnJob, replyMailJob, sendMailJob, fireMessageJob, teamInviteMailJob, stripeEventJob, endTeamMemberPlanJob, stripeCustomerCleanupJob, embedJob, embedBackfillJob, courseMailRunJob, coursePerkOpenJob];
