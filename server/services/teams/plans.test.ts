import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { apiError } from "../../testing/caller.ts";
import { createTestUser, uniqueEmail } from "../../testing/runtime.ts";
import { setupPaymentMethod } from "../billing/payments.ts";
import { createSubscription, getSubscription, updateSubscription } from "../billing/subscriptions.ts";
import { billingTestbed } from "../billing/testing.ts";
import { callerOf } from "../../testing/caller.ts";
import { acceptTeamInvite, addTeamMember } from "./invites.ts";
import { joinTeamByDomain } from "./members.ts";
import { ensureTeam, requireTeamRole } from "./teams.ts";
import { inviteToken } from "./tokens.ts";

// A member's turns are paid by the team's pool (the owner's plan): a paid plan of their own must
// not keep renewing once they are in someone else's team (docs/api.md "Teams", "Own plans").

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
