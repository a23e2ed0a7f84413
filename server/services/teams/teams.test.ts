import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { suiteTestApp } from "../../testing/app.ts";
import type { Json } from "../../testing/http.ts";
import { createTestUser } from "../../testing/runtime.ts";
import { joinTeamByDomain } from "./members.ts";
import { isPublicMailDomain } from "./domains.ts";

// What the e2e spec cannot reach from outside: expiry, what the job queue holds, the mail job's
// once-only send, concurrent first invites, and the join-domain rule on users' rows.

const app = suiteTestApp();

async function mailsTo(to: string): Promise<{ text: string }[]> {
  const files = await readdir(app.rt.outboxDir).catch(() => [] as string[]);
  const mails = await Promise.all(files.filter((f) => f.endsWith(".json")).map(async (f) => JSON.parse(await readFile(path.join(app.rt.outboxDir, f), "utf8"))));
  return mails.filter((m) => m.to === to);
}

const tokenIn = (text: string) => text.match(/\/invite\/(tti_[A-Za-z0-9_-]{43})/)![1]!;

test("the queued job holds the invite's id only; its one mail carries a working link; a resend kills the old link; an expired invite is 409", async () => {
  const [owner, invitee] = [await app.newUser(), await app.newUser()];
  const email = invitee.email;
  const res = await app.call("POST", "/billing/team/members", { key: owner.apiKey, body: { email } });
  assert.equal(res.status, 200, res.text);
  const jobs = await app.rt.prisma.job.findMany({ where: { name: "team.invite-mail" } });
  assert.equal(jobs.length, 1);
  assert.deepEqual(Object.keys(jobs[0]!.data as object), ["inviteId"]);
  const invite = await app.rt.prisma.teamInvite.findFirstOrThrow({ where: { email } });
  assert.ok(!JSON.stringify(jobs[0]!.data).includes("tti_"));

  await app.rt.runtime.jobs!.start();
  await app.rt.runtime.jobs!.idle();
  const [mail, ...more] = await mailsTo(email);
  assert.equal(more.length, 0);
  const first = tokenIn(mail!.text);
  assert.ok(!JSON.stringify(await app.rt.prisma.jobEffect.findMany()).includes(first), "the effect's record holds no link");
  assert.equal((await app.call("GET", `/billing/team/invites/${first}`)).json.status, "pending");

  // Sent again: a new link, the old one is unknown from now on.
  assert.equal((await app.call("POST", "/billing/team/members", { key: owner.apiKey, body: { email } })).status, 200);
  await app.rt.runtime.jobs!.idle();
  const second = (await mailsTo(email)).map((m) => tokenIn(m.text)).find((t) => t !== first)!;
  assert.ok(second);
  assert.equal((await app.call("GET", `/billing/team/invites/${first}`)).status, 404);
  assert.equal((await app.rt.prisma.teamInvite.count({ where: { email } })), 1, "one invite row per address");

  // Expired: the preview says so and accepting is 409 with nothing changed.
  await app.rt.prisma.teamInvite.update({ where: { id: invite.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  assert.equal((await app.call("GET", `/billing/team/invites/${second}`)).json.status, "expired");
  const accept = await app.call("POST", "/billing/team/invites/accept", { key: invitee.apiKey, body: { token: second } });
  assert.equal(accept.status, 409, accept.text);
  assert.equal(accept.json.data.status, "expired");
  assert.equal(await app.rt.prisma.teamMember.count({ where: { userId: invitee.userId } }), 0);
});

test("a revoked invite's mail job sends nothing", async () => {
  const owner = await app.newUser();
  const email = `revoked-${Date.now()}@unit.example.com`;
  const res = await app.call("POST", "/billing/team/members", { key: owner.apiKey, body: { email } });
  const inviteId = res.json.invites[0].id;
  // The job may already have run (the backend is started by the test above); revoke and re-run by hand.
  await app.rt.runtime.jobs!.idle();
  const sentBefore = (await mailsTo(email)).length;
  assert.equal((await app.call("DELETE", "/billing/team/invites", { key: owner.apiKey, body: { inviteId } })).status, 200);
  const { teamInviteMailJob } = await import("./invite-mail-job.ts");
  await teamInviteMailJob.handler({ inviteId }, { once: () => assert.fail("a revoked invite sends no mail") } as never);
  assert.equal((await mailsTo(email)).length, sentBefore);
});

test("two first invites at once make one team", async () => {
  const owner = await app.newUser();
  const results = await Promise.all(
    ["a", "b", "c"].map((t) => app.call("POST", "/billing/team/members", { key: owner.apiKey, body: { email: `${t}-${owner.userId}@unit.example.com` } })),
  );
  for (const r of results) assert.equal(r.status, 200, r.text);
  assert.equal(await app.rt.prisma.team.count({ where: { ownerId: owner.userId } }), 1);
  assert.equal((await app.call("GET", "/billing/team", { key: owner.apiKey })).json.invites.length, 3);
});

test("a first invite to one's own address is 400 and makes no team (a refused request changes nothing)", async () => {
  const user = await app.newUser();
  const own = user.email;
  const r = await app.call("POST", "/billing/team/members", { key: user.apiKey, body: { email: ` ${own.toUpperCase()} `, teamName: "Mine" } });
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.data.issues[0].path, "body.email");
  assert.equal(await app.rt.prisma.team.count({ where: { ownerId: user.userId } }), 0);
  assert.equal((await app.call("GET", "/billing/team", { key: user.apiKey })).json, null);
});

test("join by domain: verified address on the enabled domain only; public domains never", async () => {
  const p = app.rt.prisma;
  assert.equal(isPublicMailDomain("gmail.com"), true);
  assert.equal(isPublicMailDomain("mail.outlook.com"), true);
  assert.equal(isPublicMailDomain("acme-corp.test"), false);
  const owner = await createTestUser(p, { email: "boss@acme-corp.test" });
  await p.team.create({ data: { ownerId: owner.id, name: "Acme", joinDomainEnabled: true, joinDomain: "acme-corp.test", members: { create: { userId: owner.id, role: "owner", via: "owner" } } } });
  const unverified = await createTestUser(p, { email: "new@acme-corp.test" });
  const verified = await p.user.create({ data: { email: "OK@acme-corp.test", emailVerified: new Date() } });
  const team = await p.team.findFirstOrThrow({ where: { ownerId: owner.id } });
  // Invited before the address signed in: joining by domain answers the invite too.
  const invite = await p.teamInvite.create({ data: { teamId: team.id, email: "ok@acme-corp.test", tokenSalt: "s", tokenHash: "h", expiresAt: new Date(Date.now() + 86_400_000), invitedById: owner.id } });
  const other = await p.user.create({ data: { email: "ok@acme-corp.test.evil.test", emailVerified: new Date() } });
  const sub = await p.user.create({ data: { email: "ok@eu.acme-corp.test", emailVerified: new Date() } });
  assert.equal(await joinTeamByDomain(unverified.id), null);
  assert.ok(await joinTeamByDomain(verified.id));
  assert.equal(await joinTeamByDomain(verified.id), null, "already in the team");
  assert.equal(await joinTeamByDomain(other.id), null);
  assert.equal(await joinTeamByDomain(sub.id), null, "a subdomain is another domain");
  const members: Json[] = await p.teamMember.findMany({ where: { team: { ownerId: owner.id } }, orderBy: { createdAt: "asc" } });
  assert.deepEqual(members.map((m) => [m.userId, m.via]), [[owner.id, "owner"], [verified.id, "domain"]]);
  assert.equal(await p.teamActivity.count({ where: { kind: "joined", userId: verified.id } }), 1);
  assert.deepEqual(await p.teamInvite.findUniqueOrThrow({ where: { id: invite.id }, select: { status: true, acceptedById: true } }), { status: "accepted", acceptedById: verified.id });
});
