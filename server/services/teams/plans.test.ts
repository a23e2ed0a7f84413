import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { apiError } from "../../testing/caller.ts";
import { createTestUser, uniqueEmail } from "../../testing/runtime.ts";
import { setupPaymentMethod } from "../billing/payments.ts";
import { createSubscription, getSubscription, updateSubscription } from "../billing/subscriptions.ts";
import { getUsageStatus } from "../billing/usage.ts";
import { billingTestbed } from "../billing/testing.ts";
import { callerOf } from "../../testing/caller.ts";
import { acceptTeamInvite, addTeamMember } from "./invites.ts";
import { joinTeamByDomain, removeTeamMember, setTeamMemberRole } from "./members.ts";
import { ensureTeam, requireTeamRole } from "./teams.ts";
import { inviteToken } from "./tokens.ts";

// The team's shared spend pool is its owner's billing account (docs/api.md "Teams"): a paid plan of
// a member's own must not keep renewing once they are in someone else's team, and the pool changes
// hands only when the new owner accepts it.

const bed = billingTestbed();
const t = () => bed.rt();

async function teamOf(owner: ReturnType<typeof callerOf>) {
  await ensureTeam(owner, undefined);
  return requireTeamRole(owner, ["owner"]);
}

async function invite(owner: ReturnType<typeof callerOf>, email: string): Promise<string> {
  await addTeamMember(await teamOf(owner), { email });
  const row = await t().prisma.teamInvite.findFirstOrThrow({ where: { email: email.toLowerCase(), status: "pending" } });
  return inviteToken(row.id, row.tokenSalt);
}

async function atStripe(userId: string) {
  const row = await t().prisma.subscription.findUniqueOrThrow({ where: { userId } });
  return bed.gw().client.subscriptions.retrieve(row.stripeSubscriptionId!);
}

describe("a paid plan of one's own and a team", () => {
  test("a Max subscriber who accepts an invite: their plan is set to end at the period's end at Stripe, the answer says so, and they cannot renew it while in the team", async () => {
    const owner = await bed.userWithCard();
    const member = await bed.userWithCard();
    await createSubscription(owner.caller, { tier: "pro" }, null);
    const max = await createSubscription(member.caller, { tier: "max" }, null);
    assert.equal(max.subscription.cancelAtPeriodEnd, false);

    const joined = await acceptTeamInvite(member.caller, await invite(owner.caller, member.user.email));
    assert.equal(joined.role, "member");
    assert.equal(joined.ownPlan?.tier, "max");
    assert.equal(joined.ownPlan?.cancelAtPeriodEnd, true);
    assert.equal(joined.ownPlan?.currentPeriodEnd, max.subscription.currentPeriodEnd, "it runs to the end of the period paid for");
    assert.equal((await atStripe(member.user.id)).cancel_at_period_end, true, "Stripe will not renew it");
    assert.equal((await getSubscription(member.caller)).cancelAtPeriodEnd, true);

    // Keeping it (or changing tier) while the pool pays is refused, and changes nothing at Stripe.
    await assert.rejects(updateSubscription(member.caller, { tier: "max" }, null), apiError("CONFLICT", /shared pool/));
    assert.equal((await atStripe(member.user.id)).cancel_at_period_end, true);
    // The owner's plan is the pool's: untouched.
    assert.equal((await atStripe(owner.user.id)).cancel_at_period_end, false);
    assert.equal((await getSubscription(owner.caller)).cancelAtPeriodEnd, false);
  });

  test("a member without a plan joins: ownPlan is null; subscribing while in the team is 409 paid_by_team and makes nothing at Stripe", async () => {
    const owner = await bed.userWithCard();
    const member = await bed.userWithCard();
    const joined = await acceptTeamInvite(member.caller, await invite(owner.caller, member.user.email));
    assert.equal(joined.ownPlan, null);
    await assert.rejects(createSubscription(member.caller, { tier: "pro" }, null), (e) => apiError("CONFLICT")(e) && (e as { data: { reason: string } }).data.reason === "paid_by_team");
    assert.equal(await t().prisma.subscription.count({ where: { userId: member.user.id } }), 0);
  });

  test("joining by the company domain at sign-in: the job sets the plan to end at the period's end", async () => {
    const owner = await bed.userWithCard();
    const domain = `plans-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.test`;
    const team = await teamOf(owner.caller);
    await t().prisma.team.update({ where: { id: team.teamId }, data: { joinDomain: domain, joinDomainEnabled: true } });
    const user = await createTestUser(t().prisma, { email: uniqueEmail("colleague").replace(/@.*/, `@${domain}`) });
    await t().prisma.user.update({ where: { id: user.id }, data: { emailVerified: new Date() } });
    const caller = callerOf(user);
    await setupPaymentMethod(caller, { paymentMethodId: "pm_card_visa" }, null);
    await createSubscription(caller, { tier: "max" }, null);

    assert.equal(await joinTeamByDomain(user.id), team.teamId);
    await bed.settled();
    assert.equal((await getSubscription(caller)).cancelAtPeriodEnd, true);
    assert.equal((await atStripe(user.id)).cancel_at_period_end, true);
  });
});

describe("handing the team over: the pool moves only with the new owner's consent", () => {
  test("the owner's offer moves nothing; only the member named accepts it; then their account pays the pool and the old owner's own plan ends at its period's end", async () => {
    const owner = await bed.userWithCard();
    const heir = await bed.userWithCard();
    const other = await bed.userWithCard();
    await createSubscription(owner.caller, { tier: "max" }, null);
    await acceptTeamInvite(heir.caller, await invite(owner.caller, heir.user.email));
    await acceptTeamInvite(other.caller, await invite(owner.caller, other.user.email));
    const team = await teamOf(owner.caller);
    const heirMember = await t().prisma.teamMember.findUniqueOrThrow({ where: { userId: heir.user.id } });

    const offered = await setTeamMemberRole(team, heirMember.id, "owner");
    assert.equal(offered.ownerId, owner.user.id, "the owner stays the owner");
    assert.equal(offered.role, "owner");
    assert.deepEqual([offered.handover?.memberId, offered.handover?.userId], [heirMember.id, heir.user.id]);
    assert.equal((await getUsageStatus(heir.user.id)).teamPool?.ownerId, owner.user.id, "the pool is still the owner's");
    assert.ok(offered.activity.some((a) => a.kind === "owner_offered" && a.userId === heir.user.id));

    // Nobody else can take it: another member, or the heir acting on someone else.
    const otherActor = await requireTeamRole(other.caller, ["owner", "admin", "member"]);
    const otherMember = await t().prisma.teamMember.findUniqueOrThrow({ where: { userId: other.user.id } });
    await assert.rejects(setTeamMemberRole(otherActor, otherMember.id, "owner"), (e) => apiError("FORBIDDEN")(e) && (e as { data: { reason: string } }).data.reason === "no_handover_offer");
    const heirActor = await requireTeamRole(heir.caller, ["owner", "admin", "member"]);
    await assert.rejects(setTeamMemberRole(heirActor, otherMember.id, "owner"), apiError("FORBIDDEN"));
    await assert.rejects(setTeamMemberRole(heirActor, heirMember.id, "admin"), apiError("FORBIDDEN"));
    assert.equal((await t().prisma.team.findUniqueOrThrow({ where: { id: team.teamId } })).ownerId, owner.user.id);

    // The heir accepts: owner now, the pool is theirs, the old owner an admin whose own plan ends.
    const accepted = await setTeamMemberRole(heirActor, heirMember.id, "owner");
    assert.equal(accepted.ownerId, heir.user.id);
    assert.equal(accepted.role, "owner");
    assert.equal(accepted.handover, null);
    assert.equal(accepted.members.find((m) => m.userId === owner.user.id)?.role, "admin");
    assert.equal((await getUsageStatus(other.user.id)).teamPool?.ownerId, heir.user.id);
    await bed.settled();
    assert.equal((await atStripe(owner.user.id)).cancel_at_period_end, true, "the old owner's plan no longer pays the pool: it ends at the period's end");
  });

  test("the owner withdraws an offer by setting the member's role; a member who leaves takes the offer with them", async () => {
    const owner = await bed.userWithCard();
    const heir = await bed.userWithCard();
    await acceptTeamInvite(heir.caller, await invite(owner.caller, heir.user.email));
    const team = await teamOf(owner.caller);
    const heirMember = await t().prisma.teamMember.findUniqueOrThrow({ where: { userId: heir.user.id } });
    const heirActor = await requireTeamRole(heir.caller, ["owner", "admin", "member"]);

    await setTeamMemberRole(team, heirMember.id, "owner");
    const withdrawn = await setTeamMemberRole(team, heirMember.id, "member");
    assert.equal(withdrawn.handover, null);
    await assert.rejects(setTeamMemberRole(heirActor, heirMember.id, "owner"), apiError("FORBIDDEN"));

    await setTeamMemberRole(team, heirMember.id, "owner");
    await removeTeamMember(heirActor, heirMember.id);
    assert.equal((await t().prisma.team.findUniqueOrThrow({ where: { id: team.teamId } })).handoverToId, null);
  });
});
