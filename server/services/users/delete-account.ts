// user_deleteAccount: everything the account owns goes in one transaction, permanently (what
// happens to each table: ./account-data.ts; the decisions: docs/api.md "Account export and
// deletion"). After the commit its connections close and the Stripe customer is deleted by a job.
import { randomBytes } from "node:crypto";
import type { Caller } from "../../auth/caller.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { lockRow } from "../../db/lock.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { enqueue } from "../../jobs/enqueue.ts";
import { log } from "../../log.ts";
import { db, runtime } from "../../runtime.ts";
import { logActivity, teamChanged } from "../teams/teams.ts";
import { stripeCustomerCleanupJob } from "./stripe-cleanup-job.ts";

/** Stands for a deleted administrator in the records that outlive the account. */
const DELETED_ACCOUNT = "deleted-account";

type Tx = Prisma.TransactionClient;

/**
 * A team the account owns. With other members in it, the deletion is refused (409 `owns_team`):
 * the owner's account pays every member's turns, so the team passes to someone only when they
 * accept it (`billing_setTeamMemberRole` offer and accept), or the owner removes its members first.
 * A team with no one else in it is deleted with the account (its shared project is the owner's and
 * goes with the account's projects).
 */
async function endOwnedTeam(tx: Tx, userId: string): Promise<void> {
  const team = await tx.team.findUnique({ where: { ownerId: userId }, select: { id: true, name: true } });
  if (!team) return;
  // The lock orders this against a hand-over being accepted or a member joining at the same time.
  await lockRow(tx, "Team", team.id);
  const others = await tx.teamMember.count({ where: { teamId: team.id, userId: { not: userId } } });
  if (others > 0)
    throw new ApiError(
      "CONFLICT",
      `You own the team ${team.name}, which has ${others} other ${others === 1 ? "member" : "members"}: hand it over (the new owner accepts it) or remove them before deleting your account`,
      { reason: "owns_team", teamId: team.id, members: others },
    );
  await tx.team.delete({ where: { id: team.id } });
}

/**
 * Copies the ledger rows and invoices accounting must keep to AccountingArchive, without the user:
 * no user id, no description (free text may name people); a reference that contains the user id
 * (none of ours do today) has it replaced.
 */
async function archiveAccounting(tx: Tx, userId: string): Promise<void> {
  const accountRef = `acct_${randomBytes(12).toString("hex")}`;
  await tx.$executeRaw`
    INSERT INTO "AccountingArchive" ("id", "accountRef", "source", "amountCents", "balanceAfterCents", "currency", "kind", "reference", "teamId", "occurredAt")
    SELECT 'arc_' || md5(random()::text || "id"), ${accountRef}, 'ledger', "amountCents", "balanceAfterCents", "currency", "kind", replace("reference", ${userId}, 'deleted-account'), "teamId", "createdAt"
    FROM "LedgerTransaction" WHERE "userId" = ${userId}`;
  await tx.$executeRaw`
    INSERT INTO "AccountingArchive" ("id", "accountRef", "source", "amountCents", "currency", "kind", "reference", "occurredAt")
    SELECT 'arc_' || md5(random()::text || "id"), ${accountRef}, 'invoice', "amountCents", "currency", 'invoice:' || "status", replace("stripeInvoiceId", ${userId}, 'deleted-account'), "createdAt"
    FROM "Invoice" WHERE "userId" = ${userId}`;
}

export type DeletedAccount = { projectIds: string[]; audience: Map<string, string[]>; customerId: string | null; teams: string[] };

/** The transaction: everything but the effects on connections and Stripe. */
async function deleteInTransaction(userId: string, email: string): Promise<DeletedAccount> {
  return db().$transaction(
    async (tx) => {
      if (!(await lockRow(tx, "User", userId))) throw notFound("User");
      await endOwnedTeam(tx, userId);
      const membership = await tx.teamMember.findUnique({ where: { userId }, select: { teamId: true } });
      if (membership) {
        await lockRow(tx, "Team", membership.teamId);
        await tx.teamMember.delete({ where: { userId } });
        await logActivity(tx, membership.teamId, { kind: "left", data: { reason: "account_deleted" } });
      }
      const owned = await tx.project.findMany({
        where: { ownerId: userId },
        select: { id: true, shares: { select: { userId: true } }, team: { select: { members: { select: { userId: true } } } } },
      });
      const audience = new Map(owned.map((p) => [p.id, [...new Set([...p.shares.map((s) => s.userId), ...(p.team?.members.map((m) => m.userId) ?? [])])]]));
      const projectIds = owned.map((p) => p.id);
      const account = await tx.billingAccount.findUnique({ where: { userId }, select: { stripeCustomerId: true } });
      const creds = await tx.user.findUniqueOrThrow({
        where: { id: userId },
        select: { apiKeys: { select: { id: true } }, devices: { select: { id: true } }, deviceTokens: { select: { id: true } } },
      });

      await archiveAccounting(tx, userId);
      // Rows that name the account without a foreign key to it.
      await tx.user.updateMany({ where: { defaultProjectId: { in: projectIds } }, data: { defaultProjectId: null } });
      await tx.memoryNote.deleteMany({ where: { projectId: { in: projectIds } } });
      await tx.teamInvite.deleteMany({ where: { OR: [{ invitedById: userId }, { acceptedById: userId }, { email: { equals: email, mode: "insensitive" } }] } });
      await tx.$executeRaw`UPDATE "TeamActivity" SET "actorId" = NULL WHERE "actorId" = ${userId}`;
      await tx.$executeRaw`UPDATE "TeamActivity" SET "userId" = NULL WHERE "userId" = ${userId}`;
      await tx.$executeRaw`UPDATE "TeamActivity" SET "data" = '{"redacted":true}'::jsonb WHERE position(${userId} in "data"::text) > 0 OR position(${email.toLowerCase()} in lower("data"::text)) > 0`;
      const byEmail = { email: { equals: email, mode: "insensitive" as const } };
      await tx.courseSignup.deleteMany({ where: byEmail });
      await tx.courseEligible.deleteMany({ where: byEmail });
      await tx.courseMailRecipient.deleteMany({ where: byEmail });
      await tx.coursePerkGrant.deleteMany({ where: { OR: [{ userId }, byEmail] } });
      await tx.courseCoupon.updateMany({ where: { redeemedById: userId }, data: { redeemedById: null, redeemedFingerprint: null, redeemedIp: null } });
      await tx.courseIdea.deleteMany({ where: { authorId: userId } });
      // An administrator's actions stay on record, without who.
      await tx.courseEligible.updateMany({ where: { addedById: userId }, data: { addedById: DELETED_ACCOUNT } });
      await tx.courseMailRun.updateMany({ where: { createdById: userId }, data: { createdById: DELETED_ACCOUNT } });
      await tx.adminAuditLog.updateMany({ where: { actorId: userId }, data: { actorId: DELETED_ACCOUNT } });
      await tx.verificationToken.deleteMany({ where: { identifier: { equals: email, mode: "insensitive" } } });
      const scopes = [`user:${userId}`, ...creds.apiKeys.map((k) => `key:${k.id}`), ...creds.devices.map((d) => `device:${d.id}`), ...creds.deviceTokens.map((t) => `device:${t.id}`)];
      await tx.idempotencyKey.deleteMany({ where: { scope: { in: scopes } } });
      // Everything else hangs off the user row: ON DELETE CASCADE takes projects (and their todos,
      // messages, blocks, groups, cards, shares), todos written elsewhere, keys, sessions, devices
      // and tokens, settings, notes, billing rows and the team membership.
      await tx.user.delete({ where: { id: userId } });
      return { projectIds, audience, customerId: account?.stripeCustomerId ?? null, teams: membership ? [membership.teamId] : [] };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/**
 * Deletes the caller's account. `confirm` must be the account's email (case-insensitive), or
 * nothing happens (422). Resolves once every connection of the account is closed.
 */
export async function deleteAccount(caller: Pick<Caller, "userId">, confirm: string): Promise<{ success: true }> {
  const user = await db().user.findUnique({ where: { id: caller.userId }, select: { email: true } });
  if (!user) throw notFound("User");
  if (confirm.trim().toLowerCase() !== user.email.toLowerCase())
    throw new ApiError("UNPROCESSABLE_CONTENT", "Type the account's email address to confirm the deletion", {
      issues: [{ path: "body.confirm", message: "must be the account's email address", code: "custom" }],
    });
  const done = await deleteInTransaction(caller.userId, user.email);
  // Every connection of the account (browser, keys, devices) closes now, in every process.
  await runtime().bus.affect({ kind: "credential.revoked", credential: `user:${caller.userId}` });
  for (const projectId of done.projectIds) runtime().bus.publish({ type: "project.deleted", projectId, audience: done.audience.get(projectId) ?? [], data: { projectId } });
  for (const teamId of done.teams) await teamChanged(teamId);
  if (done.customerId) {
    try {
      await enqueue(stripeCustomerCleanupJob, { customerId: done.customerId }, { key: done.customerId });
    } catch (err) {
      // The account is gone either way; the customer is left for an operator (logged with its id only).
      log.error("account deleted, but its Stripe cleanup could not be queued", { customerId: done.customerId, error: err instanceof Error ? err.message : String(err) });
    }
  }
  log.info("account deleted", { userId: caller.userId });
  return { success: true };
}

