import { test } from "node:test";
import assert from "node:assert/strict";
import { suiteTestApp } from "../../testing/app.ts";
import type { Json } from "../../testing/http.ts";

// usage_getTeamUsage: the role matrix, per-member sums of the turns the team's pool paid that add
// up to the rows, spend not charged to the pool and outside the range left out, and bad ranges 400.
// (The pool's charging itself: server/services/billing/billing.test.ts.)

const app = suiteTestApp();

const DAY = 86_400_000;

test("owner and admin see each member's spend since joining, per day; members are 403, outsiders 404; bad ranges 400", async () => {
  const [owner, admin, member, outsider, departed] = [await app.newUser(), await app.newUser(), await app.newUser(), await app.newUser(), await app.newUser()];
  const now = Date.now();
  const joined = new Date(now - 10 * DAY);
  const team = await app.rt.prisma.team.create({
    data: {
      ownerId: owner.userId,
      name: "Usage",
      members: {
        create: [
          { userId: owner.userId, role: "owner", via: "owner", createdAt: new Date(now - 40 * DAY) },
          { userId: admin.userId, role: "admin", createdAt: new Date(now - 70 * DAY) },
          { userId: member.userId, role: "member", createdAt: joined },
        ],
      },
    },
  });
  let n = 0;
  const turn = (userId: string, at: number, costCents: number, pool = true) =>
    app.rt.prisma.usageRecord.create({
      data: { userId, payerId: pool ? owner.userId : userId, teamId: pool ? team.id : null, projectId: "p", todoId: "t", messageId: `msg-${team.id}-${n++}`, tokensIn: 10, tokensOut: 20, costCents, createdAt: new Date(at) },
    });
  await turn(owner.userId, now - 2 * DAY, 100);
  await turn(owner.userId, now - 2 * DAY + 1000, 50);
  await turn(owner.userId, now - 1 * DAY, 7);
  await turn(member.userId, now - 20 * DAY, 999, false); // before joining: paid by the member, not the pool
  await turn(member.userId, now - 3 * DAY, 30);
  await turn(outsider.userId, now - 1 * DAY, 5000, false); // not in the team
  await turn(departed.userId, now - 4 * DAY, 3); // paid by the pool, then left: in the totals, not listed
  await turn(admin.userId, now - 60 * DAY, 400); // outside the default 30 days

  for (const u of [owner, admin]) {
    const res = await app.call("GET", "/usage/team", { key: u.apiKey });
    assert.equal(res.status, 200, res.text);
    const body: Json = res.json;
    assert.equal(body.teamId, team.id);
    assert.deepEqual(body.totals, { turns: 5, tokensIn: 50, tokensOut: 100, costCents: 190 });
    assert.deepEqual(body.members.map((m: Json) => [m.userId, m.costCents, m.turns]), [
      [owner.userId, 157, 3],
      [member.userId, 30, 1],
      [admin.userId, 0, 0],
    ]);
    const days = body.members[0].days;
    assert.deepEqual(days.map((d: Json) => d.costCents), [150, 7]);
    assert.equal(days[0].date, new Date(now - 2 * DAY).toISOString().slice(0, 10));
    assert.equal(body.members[1].joinedAt, joined.getTime());
  }
  const wide = await app.call("GET", "/usage/team", { key: owner.apiKey, query: { from: new Date(now - 90 * DAY).toISOString() } });
  assert.equal(wide.json.totals.costCents, 590, "the admin's old turn counts in a wider range; the member's before joining never");

  const forbidden = await app.call("GET", "/usage/team", { key: member.apiKey });
  assert.equal(forbidden.status, 403, forbidden.text);
  assert.equal((await app.call("GET", "/usage/team", { key: outsider.apiKey })).status, 404);
  assert.equal((await app.call("GET", "/usage/team")).status, 401);
  const bad: Record<string, string>[] = [{ from: "yesterday" }, { from: "2026-01-10", to: "2026-01-01" }, { from: "2020-01-01", to: "2026-01-01" }];
  for (const query of bad) {
    const res = await app.call("GET", "/usage/team", { key: owner.apiKey, query });
    assert.equal(res.status, 400, `${JSON.stringify(query)} → ${res.text}`);
  }
});
