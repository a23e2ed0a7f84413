import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { operations } from "../../operations/index.ts";
import { TEST_APP_URL, suiteTestApp, type TestAppUser } from "../../testing/app.ts";
import type { Json } from "../../testing/http.ts";

// The course administration operations through the real pipeline: access on every base, inputs,
// eligible, coupons (resend), perks (idempotent under a concurrent double call), followers, the
// audit, ideas, registrations, the coupon audit and redemption.

const app = suiteTestApp({ env: { COURSE_MAIL_PER_SECOND: "1000" }, setup });
let admin: TestAppUser;
let user: TestAppUser;
async function setup() {
  admin = await app.newUser({ isAdmin: true });
  user = await app.newUser();
  await app.rt.runtime.jobs!.start();
}

const A = () => ({ key: admin.apiKey });
let n = 0;
async function newCourse(extra: Record<string, unknown> = {}): Promise<string> {
  const slug = `course-${++n}-${Date.now()}`;
  const res = await app.call("PUT", `/admin/course/${slug}`, { ...A(), body: { title: `Course ${n}`, startsAt: Date.now() + 86_400_000, perkCreditCents: 500, ...extra } });
  assert.equal(res.status, 200, res.text);
  return slug;
}

async function outbox(): Promise<Json[]> {
  const dir = app.rt.outboxDir;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".json"));
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), "utf8"))));
}

test("every admin operation: 401 without a credential, 403 for a non-admin, on the key and cookie bases; not served to device tokens", async () => {
  const slug = await newCourse();
  const admins = operations.filter((op) => op.admin);
  assert.ok(admins.length >= 9);
  for (const op of admins) {
    const p = op.path.replace("{slug}", slug).replace("{kind}", "day").replace("{code}", "XXXX").replace("{runId}", "x");
    for (const base of ["api", "cookie"] as const) {
      const anon = await app.call(op.method, p, { base, body: op.body ? {} : undefined, headers: base === "cookie" ? { origin: TEST_APP_URL } : {} });
      assert.equal(anon.status, 401, `${op.id} ${base} anonymous: ${anon.text}`);
      const cred = base === "api" ? { key: user.apiKey } : { cookie: user.sessionCookie };
      const denied = await app.call(op.method, p, { base, ...cred, body: op.body ? {} : undefined });
      assert.equal(denied.status, 403, `${op.id} ${base} non-admin: ${denied.text}`);
      assert.equal(denied.json.code, "FORBIDDEN");
    }
    const dst = await app.call(op.method, p, { base: "dst", headers: { authorization: "Bearer dst_nothing" } });
    assert.ok([401, 404].includes(dst.status), `${op.id} dst: ${dst.status}`);
  }
  // The admin over the cookie base too.
  const ok = await app.call("GET", `/admin/course/${slug}`, { base: "cookie", cookie: admin.sessionCookie });
  assert.equal(ok.status, 200, ok.text);
});

test("eligible: invalid entries are 400 with the list and nothing applied; skipInvalid applies the valid ones and lists the rest", async () => {
  const slug = await newCourse();
  const bad = await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: ["a@x.test", "not-an-email", " B@X.test "] } });
  assert.equal(bad.status, 400, bad.text);
  assert.deepEqual(bad.json.data.invalid, ["not-an-email"]);
  let regs = await app.call("GET", `/admin/course/${slug}/registrations`, A());
  assert.equal(regs.json.total, 0, "nothing applied");
  const ok = await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: ["a@x.test", "not-an-email", " B@X.test "], skipInvalid: true, note: "support #12" } });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.json, { added: ["a@x.test", "b@x.test"], alreadyListed: [], rejected: ["not-an-email"] });
  const again = await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: ["A@x.test"] } });
  assert.deepEqual(again.json, { added: [], alreadyListed: ["a@x.test"], rejected: [] });
  regs = await app.call("GET", `/admin/course/${slug}/registrations`, A());
  assert.deepEqual(regs.json.items.map((r: Json) => [r.email, r.source]), [["a@x.test", "eligible"], ["b@x.test", "eligible"]]);
  // q is a substring as typed: % and _ are no wildcards.
  for (const q of ["%", "_", "a%"]) assert.equal((await app.call("GET", `/admin/course/${slug}/registrations`, { ...A(), query: { q } })).json.total, 0, q);
  assert.equal((await app.call("GET", `/admin/course/${slug}/registrations`, { ...A(), query: { q: "B@X" } })).json.total, 1);
  for (const body of [{}, { emails: [] }, { emails: "a@x.test" }, { emails: ["a@x.test"], skipInvalid: "yes" }]) {
    assert.equal((await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body })).status, 400, JSON.stringify(body));
  }
  assert.equal((await app.call("POST", `/admin/course/no-such-course/eligible`, { ...A(), body: { emails: ["a@x.test"] } })).status, 404);
  const log = await app.call("GET", "/admin/log", { ...A(), query: { course: slug } });
  assert.deepEqual(log.json.items.map((e: Json) => [e.action, e.count]).slice(0, 2), [["course.eligible", 0], ["course.eligible", 2]]);
});

test("signup, coupons to those not yet mailed, resend=true to everyone, redeem once, the per-code audit", async () => {
  const slug = await newCourse();
  for (const email of ["c1@x.test", "c2@x.test"]) {
    const r = await app.call("POST", `/courses/${slug}/signups`, { body: { email, fingerprint: "fp-1" }, headers: { "x-todo-client-ip": "10.0.0.9" } });
    assert.equal(r.status, 200, r.text);
  }
  assert.equal((await app.call("POST", `/courses/${slug}/signups`, { body: { email: "nope" } })).status, 400);
  const first = await app.call("POST", `/admin/course/${slug}/coupons`, A());
  assert.equal(first.status, 200, first.text);
  assert.equal(first.json.total, 2);
  await app.rt.runtime.jobs!.idle();
  const coupons = async () => (await outbox()).filter((m) => m.subject.startsWith("Your coupon") && ["c1@x.test", "c2@x.test", "c3@x.test"].includes(m.to));
  assert.equal((await coupons()).length, 2);
  // A third signup: the next call mails only them.
  await app.call("POST", `/courses/${slug}/signups`, { body: { email: "c3@x.test" } });
  const second = await app.call("POST", `/admin/course/${slug}/coupons`, { ...A(), body: { resend: false } });
  assert.equal(second.json.total, 1);
  await app.rt.runtime.jobs!.idle();
  assert.equal((await coupons()).length, 3);
  const resend = await app.call("POST", `/admin/course/${slug}/coupons`, { ...A(), body: { resend: true } });
  assert.equal(resend.json.total, 3);
  await app.rt.runtime.jobs!.idle();
  const mails = await coupons();
  assert.equal(mails.length, 6);
  const codeOf = (to: string) => mails.find((m) => m.to === to)!.text.match(/code: ([A-Z0-9-]+)/)![1]!;
  assert.equal(new Set(mails.filter((m) => m.to === "c1@x.test").map((m) => codeOf(m.to))).size, 1, "the same code again");
  const runs = await app.call("GET", `/admin/course/${slug}/mail-runs`, A());
  assert.deepEqual(runs.json.items.map((r: Json) => [r.state, r.total, r.sent, r.failed]), [["done", 3, 3, 0], ["done", 1, 1, 0], ["done", 2, 2, 0]]);

  // Redeem once; the perk goes through the ledger.
  const code = codeOf("c1@x.test");
  const redeem = await app.call("POST", "/courses/coupons/redeem", { key: user.apiKey, body: { code, fingerprint: "fp-r" } });
  assert.equal(redeem.status, 200, redeem.text);
  assert.equal(redeem.json.creditedCents, 500);
  assert.equal((await app.call("POST", "/courses/coupons/redeem", { key: user.apiKey, body: { code } })).status, 409);
  assert.equal((await app.call("POST", "/courses/coupons/redeem", { key: user.apiKey, body: { code: "NOPE-NOPE-NOPE" } })).status, 404);
  const audit = await app.call("GET", `/admin/coupon/${code}/audit`, A());
  assert.equal(audit.status, 200, audit.text);
  assert.equal(audit.json.email, "c1@x.test");
  assert.equal(audit.json.mailCount, 2);
  assert.equal(audit.json.redeemedBy.userId, user.userId);
  assert.equal(audit.json.redeemedFingerprint, "fp-r");
  assert.equal(audit.json.signupIp, "10.0.0.9");
  assert.equal((await app.call("GET", `/admin/coupon/NOPE/audit`, A())).status, 404);

  const redeemed = await app.call("GET", `/admin/course/${slug}/registrations`, { ...A(), query: { redeemed: "true" } });
  assert.deepEqual(redeemed.json.items.map((r: Json) => r.email), ["c1@x.test"]);
  const page = await app.call("GET", `/admin/course/${slug}/registrations`, { ...A(), query: { limit: "2", offset: "2" } });
  assert.deepEqual([page.json.total, page.json.items.length], [3, 1]);
  assert.equal((await app.call("GET", `/admin/course/${slug}/registrations`, { ...A(), query: { mailed: "maybe" } })).status, 400);
});

test("perks: granted once per user under a concurrent double call; a rerun grants nobody", async () => {
  const slug = await newCourse();
  const members = [user, await app.newUser(), await app.newUser()];
  const emails = await Promise.all(members.map(async (m) => (await app.rt.prisma.user.findUniqueOrThrow({ where: { id: m.userId } })).email));
  await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: [...emails, "noaccount@x.test"] } });
  const before = await app.rt.prisma.ledgerTransaction.count({ where: { kind: "grant", reference: { startsWith: "course-perk:" } } });
  const [a, b] = await Promise.all([app.call("POST", `/admin/course/${slug}/perks`, A()), app.call("POST", `/admin/course/${slug}/perks`, A())]);
  assert.equal(a.status, 200, a.text);
  assert.equal(b.status, 200, b.text);
  assert.equal(a.json.granted + b.json.granted, 3, JSON.stringify([a.json, b.json]));
  assert.equal(a.json.withoutAccount, 1);
  const course = await app.rt.prisma.course.findUniqueOrThrow({ where: { slug } });
  assert.equal(await app.rt.prisma.coursePerkGrant.count({ where: { courseId: course.id } }), 3);
  assert.equal(await app.rt.prisma.ledgerTransaction.count({ where: { kind: "grant", reference: { startsWith: `course-perk:${course.id}:` } } }), 3);
  const rerun = await app.call("POST", `/admin/course/${slug}/perks`, A());
  assert.deepEqual(rerun.json, { granted: 0, alreadyGranted: 3, withoutAccount: 1 });
  assert.equal(await app.rt.prisma.ledgerTransaction.count({ where: { kind: "grant", reference: { startsWith: "course-perk:" } } }), before + 3);
  const claimed = await app.call("GET", `/admin/course/${slug}/registrations`, { ...A(), query: { claimed: "false" } });
  assert.deepEqual(claimed.json.items.map((r: Json) => r.email), ["noaccount@x.test"]);
});

test("mail kinds: last needs an attendee code; day goes to those no day mail reached; an unknown kind is 400", async () => {
  const slug = await newCourse();
  await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: ["d1@x.test", "d2@x.test"] } });
  assert.equal((await app.call("POST", `/admin/course/${slug}/mail/last`, A())).status, 409);
  assert.equal((await app.call("POST", `/admin/course/${slug}/mail/week`, A())).status, 400);
  assert.equal((await app.call("POST", `/admin/course/${slug}/mail/day`, { ...A(), body: { resend: "yes" } })).status, 400);
  const day = await app.call("POST", `/admin/course/${slug}/mail/day`, A());
  assert.equal(day.json.total, 2);
  await app.rt.runtime.jobs!.idle();
  assert.equal((await app.call("POST", `/admin/course/${slug}/mail/day`, A())).json.total, 0);
  assert.equal((await app.call("POST", `/admin/course/${slug}/mail/day`, { ...A(), body: { resend: true } })).json.total, 2);
  await app.rt.runtime.jobs!.idle();
  const dayMails = (await outbox()).filter((m) => m.subject.includes("starts tomorrow") && ["d1@x.test", "d2@x.test"].includes(m.to));
  assert.equal(dayMails.length, 4);
});

test("a mailing reaches, in signup order, exactly those no earlier run of its kind reached; a failed recipient is reached again", async () => {
  const slug = await newCourse();
  const course = await app.rt.prisma.course.findUniqueOrThrow({ where: { slug } });
  await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: ["s1@x.test", "s2@x.test"] } });
  const first = await app.call("POST", `/admin/course/${slug}/mail/start`, A());
  assert.equal(first.json.total, 2, first.text);
  await app.rt.runtime.jobs!.idle();
  // s2's mail bounced in the first run; s3 and s4 signed up since (s4 first: order is the signup's time).
  await app.rt.prisma.courseMailRecipient.updateMany({ where: { runId: first.json.id, email: "s2@x.test" }, data: { status: "failed", reason: "bounced" } });
  for (const email of ["s4@x.test", "s3@x.test"]) await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: [email] } });
  // A day mailing is another kind: it reaches everyone.
  const day = await app.call("POST", `/admin/course/${slug}/mail/day`, A());
  assert.equal(day.json.total, 4, day.text);
  const again = await app.call("POST", `/admin/course/${slug}/mail/start`, A());
  assert.equal(again.status, 200, again.text);
  const recipients = await app.rt.prisma.courseMailRecipient.findMany({ where: { runId: again.json.id }, orderBy: { id: "asc" }, select: { email: true, status: true } });
  assert.deepEqual(recipients.map((r) => r.email), ["s2@x.test", "s4@x.test", "s3@x.test"]);
  assert.equal(again.json.total, 3);
  await app.rt.runtime.jobs!.idle();
  const log = await app.rt.prisma.adminAuditLog.findFirstOrThrow({ where: { courseId: course.id, target: again.json.id } });
  assert.equal(log.count, 3);
  assert.equal((await app.call("POST", `/admin/course/${slug}/mail/start`, A())).json.total, 0, "everyone reached: nothing to send");
});

test("followers and the audit: invalid handles 400 (snapshot kept); clusters by fingerprint and IP; redeemers marked by the snapshot", async () => {
  const slug = await newCourse();
  const sign = (email: string, fingerprint: string, ip: string, socialHandle?: string) =>
    app.call("POST", `/courses/${slug}/signups`, { body: { email, fingerprint, socialHandle }, headers: { "x-todo-client-ip": ip } });
  await sign("e1@x.test", "dev-a", "1.1.1.1", "@Alice");
  await sign("e2@x.test", "dev-a", "2.2.2.2");
  await sign("e3@x.test", "dev-c", "2.2.2.2");
  await sign("e4@x.test", "dev-d", "4.4.4.4");
  assert.equal((await app.call("PUT", `/admin/course/${slug}/followers`, { ...A(), body: { handles: ["alice", "bob"] } })).json.count, 2);
  const bad = await app.call("PUT", `/admin/course/${slug}/followers`, { ...A(), body: { handles: ["carol", "not a handle!"] } });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json.data.invalid, ["not a handle!"]);
  assert.equal((await app.call("PUT", `/admin/course/${slug}/followers`, { ...A(), body: {} })).status, 400);
  await app.call("POST", `/admin/course/${slug}/coupons`, A());
  await app.rt.runtime.jobs!.idle();
  const course = await app.rt.prisma.course.findUniqueOrThrow({ where: { slug } });
  await app.rt.prisma.courseCoupon.updateMany({ where: { courseId: course.id, signup: { email: { in: ["e1@x.test", "e4@x.test"] } } }, data: { redeemedAt: new Date() } });
  const audit = await app.call("GET", `/admin/course/${slug}/audit`, A());
  assert.equal(audit.status, 200, audit.text);
  assert.deepEqual(audit.json.clusters.map((c: Json) => [c.by, c.value, c.members.map((m: Json) => m.email)]), [
    ["ip", "2.2.2.2", ["e2@x.test", "e3@x.test"]],
    ["fingerprint", "dev-a", ["e1@x.test", "e2@x.test"]],
  ]);
  assert.deepEqual(audit.json.redeemers.map((m: Json) => [m.email, m.followsPage]), [["e1@x.test", true], ["e4@x.test", false]]);
  assert.equal(audit.json.followerSnapshot.count, 2, "the 400 kept the snapshot");
});

test("ideas: signed-in users submit and see them; a hidden idea vanishes from the wall and stays (marked) for admins", async () => {
  const slug = await newCourse();
  assert.equal((await app.call("GET", `/courses/${slug}/ideas`)).status, 401);
  const posted = await app.call("POST", `/courses/${slug}/ideas`, { key: user.apiKey, body: { text: "More exercises please" } });
  assert.equal(posted.status, 200, posted.text);
  assert.equal((await app.call("POST", `/courses/${slug}/ideas`, { key: user.apiKey, body: { text: "" } })).status, 400);
  const other = await app.newUser();
  const wall = await app.call("GET", `/courses/${slug}/ideas`, { key: other.apiKey });
  assert.deepEqual(wall.json.items.map((i: Json) => [i.text, i.mine]), [["More exercises please", false]]);
  const hide = await app.call("POST", "/admin/course/hide-idea", { ...A(), body: { ideaId: posted.json.id } });
  assert.equal(hide.status, 200, hide.text);
  assert.equal(hide.json.hidden, true);
  assert.deepEqual((await app.call("GET", `/courses/${slug}/ideas`, { key: other.apiKey })).json.items, []);
  const mod = await app.call("GET", `/admin/course/${slug}/ideas`, A());
  assert.deepEqual(mod.json.items.map((i: Json) => [i.text, i.hidden]), [["More exercises please", true]]);
  assert.equal((await app.call("POST", "/admin/course/hide-idea", { ...A(), body: { ideaId: "nope" } })).status, 404);
  assert.equal((await app.call("POST", "/admin/course/hide-idea", { ...A(), body: {} })).status, 400);
  await app.call("POST", "/admin/course/hide-idea", { ...A(), body: { ideaId: posted.json.id, hidden: false } });
  assert.equal((await app.call("GET", `/courses/${slug}/ideas`, { key: other.apiKey })).json.items.length, 1);
});

test("ideas: a burst of 25 at once lands exactly 20 (the hourly limit) and 5 answers of 429", async () => {
  const slug = await newCourse();
  const author = await app.newUser();
  const sent = await Promise.all(Array.from({ length: 25 }, (_, i) => app.call("POST", `/courses/${slug}/ideas`, { key: author.apiKey, body: { text: `Idea ${i}` } })));
  assert.deepEqual(sent.map((r) => r.status).sort(), [...Array(20).fill(200), ...Array(5).fill(429)]);
  assert.equal(sent.find((r) => r.status === 429)!.json.message, "At most 20 ideas an hour");
  assert.equal(await app.rt.prisma.courseIdea.count({ where: { authorId: author.userId } }), 20);
});

test("the perk opens by itself (course.perk-open) and reaches a signup who makes an account later, once", async () => {
  const slug = await newCourse({ perkOpensAt: Date.now() + 60_000 });
  const course = await app.rt.prisma.course.findUniqueOrThrow({ where: { slug } });
  const job = await app.rt.prisma.job.findFirst({ where: { name: "course.perk-open", key: `${course.id}@${course.perkOpensAt!.getTime()}` } });
  assert.ok(job, "queued for the opening time");
  const early = await app.newUser();
  const earlyEmail = (await app.rt.prisma.user.findUniqueOrThrow({ where: { id: early.userId } })).email;
  await app.call("POST", `/courses/${slug}/signups`, { body: { email: earlyEmail } });
  await app.call("POST", `/courses/${slug}/signups`, { body: { email: "later@x.test" } });
  const { coursePerkOpenJob } = await import("./perk-job.ts");
  // A job for a moved opening time does nothing; the current one grants.
  await coursePerkOpenJob.handler({ courseId: course.id, at: 1 }, {} as never);
  assert.equal(await app.rt.prisma.coursePerkGrant.count({ where: { courseId: course.id } }), 0);
  await app.rt.prisma.course.update({ where: { id: course.id }, data: { perkOpensAt: new Date(Date.now() - 1000) } });
  const opened = await app.rt.prisma.course.findUniqueOrThrow({ where: { id: course.id } });
  await coursePerkOpenJob.handler({ courseId: course.id, at: opened.perkOpensAt!.getTime() }, {} as never);
  assert.deepEqual((await app.rt.prisma.coursePerkGrant.findMany({ where: { courseId: course.id } })).map((g) => g.userId), [early.userId]);
  const { grantOpenPerksTo } = await import("./courses.ts");
  const later = await app.rt.prisma.user.create({ data: { email: "later@x.test" } });
  assert.equal(await grantOpenPerksTo(later.id), 1);
  assert.equal(await grantOpenPerksTo(later.id), 0, "a second sign-in grants nothing");
  assert.equal(await app.rt.prisma.coursePerkGrant.count({ where: { courseId: course.id } }), 2);
});

test("a course cannot be named like the hide-idea operation; a bad slug or body is 400 and creates nothing", async () => {
  const put = (slug: string, body: unknown) => app.call("PUT", `/admin/course/${slug}`, { ...A(), body });
  const ok = { title: "T", startsAt: Date.now() };
  assert.equal((await put("hide-idea", ok)).status, 400, "reserved: the path is POST hide-idea's");
  assert.equal((await put("Bad_Slug", ok)).status, 400);
  assert.equal((await put("fine-slug", { title: "", startsAt: Date.now() })).status, 400);
  assert.equal((await put("fine-slug", { title: "T", startsAt: "tomorrow" })).status, 400);
  assert.equal((await put("fine-slug", { ...ok, perkCreditCents: -5 })).status, 400);
  assert.equal(await app.rt.prisma.course.count({ where: { slug: { in: ["fine-slug", "hide-idea"] } } }), 0);
});

test("an admin makes another account an administrator (logged); unknown email 404; removing oneself 409", async () => {
  const other = await app.newUser();
  const email = (await app.rt.prisma.user.findUniqueOrThrow({ where: { id: other.userId } })).email;
  assert.equal((await app.call("GET", "/admin/courses", { key: other.apiKey })).status, 403);
  const res = await app.call("PUT", "/admin/administrators", { ...A(), body: { email: email.toUpperCase(), isAdmin: true } });
  assert.equal(res.status, 200, res.text);
  assert.equal((await app.call("GET", "/admin/courses", { key: other.apiKey })).status, 200);
  assert.equal((await app.call("PUT", "/admin/administrators", { ...A(), body: { email: "nobody@x.test", isAdmin: true } })).status, 404);
  const adminEmail = (await app.rt.prisma.user.findUniqueOrThrow({ where: { id: admin.userId } })).email;
  assert.equal((await app.call("PUT", "/admin/administrators", { ...A(), body: { email: adminEmail, isAdmin: false } })).status, 409);
  assert.equal((await app.call("PUT", "/admin/administrators", { ...A(), body: { email: "x", isAdmin: true } })).status, 400);
  assert.equal((await app.call("PUT", "/admin/administrators", { key: other.apiKey, body: { email: adminEmail, isAdmin: false } })).status, 200, "the new admin may");
  await app.rt.prisma.user.update({ where: { id: admin.userId }, data: { isAdmin: true } });
  const log = await app.call("GET", "/admin/log", A());
  assert.ok(log.json.items.some((e: Json) => e.action === "admin.grant" && e.target === email));
});

test("admin_log pages newest first with a cursor: entries sharing a time are neither lost nor repeated; a bad cursor is 400", async () => {
  const slug = await newCourse();
  const course = await app.rt.prisma.course.findUniqueOrThrow({ where: { slug } });
  const at = new Date(Date.now() - 60_000);
  // Five entries, three of them at the same instant.
  await app.rt.prisma.adminAuditLog.createMany({
    data: [0, 0, 0, 1, 2].map((dt, i) => ({ actorId: admin.userId, action: `page.${i}`, courseId: course.id, count: i, createdAt: new Date(at.getTime() + dt) })),
  });
  const seen: string[] = [];
  let cursor: string | null | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const res = await app.call("GET", "/admin/log", { ...A(), query: { course: slug, limit: "2", ...(cursor ? { cursor } : {}) } });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.json.items.length <= 2);
    seen.push(...res.json.items.map((e: Json) => e.action));
    cursor = res.json.nextCursor;
    if (!cursor) break;
  }
  const own = seen.filter((a) => a.startsWith("page."));
  assert.deepEqual(own.slice(0, 2), ["page.4", "page.3"]);
  assert.deepEqual([...own].sort(), ["page.0", "page.1", "page.2", "page.3", "page.4"]);
  assert.equal(new Set(seen).size, seen.length, "no entry twice");
  for (const bad of ["x", "1:", "12:ab:cd", ""]) assert.equal((await app.call("GET", "/admin/log", { ...A(), query: { cursor: bad } })).status, 400, bad);
});

test("registrations: a search and the 'no' filters all apply together (each used to replace the other's condition)", async () => {
  const slug = await newCourse();
  for (const email of ["m1@x.test", "m2@x.test"]) assert.equal((await app.call("POST", `/courses/${slug}/signups`, { body: { email } })).status, 200);
  assert.equal((await app.call("POST", `/admin/course/${slug}/coupons`, A())).status, 200);
  await app.rt.runtime.jobs!.idle();
  for (const email of ["u1@x.test", "u2@x.test"]) assert.equal((await app.call("POST", `/courses/${slug}/signups`, { body: { email } })).status, 200);
  const emails = async (query: Record<string, string>) => {
    const r = await app.call("GET", `/admin/course/${slug}/registrations`, { ...A(), query });
    assert.equal(r.status, 200, r.text);
    return r.json.items.map((i: Json) => i.email).sort();
  };
  assert.deepEqual(await emails({ mailed: "false", redeemed: "false" }), ["u1@x.test", "u2@x.test"]);
  assert.deepEqual(await emails({ q: "u1", mailed: "false" }), ["u1@x.test"]);
  assert.deepEqual(await emails({ q: "m2", redeemed: "false" }), ["m2@x.test"]);
  assert.deepEqual(await emails({ mailed: "true", redeemed: "false" }), ["m1@x.test", "m2@x.test"]);
});

/** Counts the rows `courseSignup.findMany` hands the services while `fn` runs (the database's answer, not the page's). */
async function signupRowsRead(fn: () => Promise<void>): Promise<number> {
  const rt = app.rt.runtime;
  const real = rt.prisma;
  let rows = 0;
  rt.prisma = new Proxy(real, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key === "courseSignup") {
        const delegate = value as typeof real.courseSignup;
        return new Proxy(delegate, {
          get(d, m) {
            if (m !== "findMany") return Reflect.get(d, m) as unknown;
            return async (...args: Parameters<typeof delegate.findMany>) => {
              const r = await delegate.findMany(...args);
              rows += r.length;
              return r;
            };
          },
        });
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  try {
    await fn();
  } finally {
    rt.prisma = real;
  }
  return rows;
}

test("mail failures: each failed recipient with the provider's reason, a page at a time, none twice; the same kind without resend retries exactly them", async () => {
  const slug = await newCourse();
  const bounced = ["bounce-1@x.test", "bounce-2@x.test", "bounce-3@x.test"];
  assert.equal((await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: ["ok-1@x.test", ...bounced, "ok-2@x.test"] } })).status, 200);
  const mailer = app.rt.runtime.mailer;
  const send = mailer.send.bind(mailer);
  mailer.send = async (mail, opts) => {
    if (mail.to.startsWith("bounce-")) throw new Error(`Resend refused the message: ${mail.to} does not exist`);
    return send(mail, opts);
  };
  try {
    assert.equal((await app.call("POST", `/admin/course/${slug}/mail/day`, A())).status, 200);
    await app.rt.runtime.jobs!.idle();
  } finally {
    mailer.send = send;
  }
  const runs = await app.call("GET", `/admin/course/${slug}/mail-runs`, A());
  const run = runs.json.items[0];
  assert.deepEqual([run.state, run.total, run.sent, run.failed], ["done", 5, 2, 3]);

  const seen: Json[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await app.call("GET", `/admin/course/${slug}/mail-runs/${run.id}/failures`, { ...A(), query: { limit: "2", ...(cursor ? { cursor } : {}) } });
    assert.equal(page.status, 200, page.text);
    assert.ok(page.json.items.length <= 2, "a page holds at most `limit`");
    seen.push(...page.json.items);
    cursor = page.json.nextCursor ?? undefined;
    pages++;
  } while (cursor && pages < 5);
  assert.equal(pages, 2, "3 failures at 2 a page: two pages, the last without a cursor");
  assert.deepEqual(seen.map((f) => f.email).sort(), bounced);
  for (const f of seen) {
    assert.equal(f.attempts, 3);
    assert.match(f.reason, /does not exist/);
  }
  assert.equal((await app.call("GET", `/admin/course/${slug}/mail-runs/${run.id}/failures`, { ...A(), query: { cursor: "not-a-cursor" } })).status, 400);

  // The retry the console offers: the same kind, no resend: the three failed, nobody mailed twice.
  const retry = await app.call("POST", `/admin/course/${slug}/mail/day`, { ...A(), body: { resend: false } });
  assert.equal(retry.status, 200, retry.text);
  assert.equal(retry.json.total, 3);
  await app.rt.runtime.jobs!.idle();
  const after = await app.call("GET", `/admin/course/${slug}/mail-runs`, A());
  assert.deepEqual([after.json.items[0].sent, after.json.items[0].failed], [3, 0]);
});

test("mail runs, ideas and courses are keyset pages: `limit` items, then the rest from `nextCursor`, none twice", async () => {
  const slug = await newCourse({ attendeeCode: "CODE-1" });
  assert.equal((await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails: ["p1@x.test"] } })).status, 200);
  for (const kind of ["day", "start", "last"]) {
    assert.equal((await app.call("POST", `/admin/course/${slug}/mail/${kind}`, A())).status, 200);
    await app.rt.runtime.jobs!.idle();
  }
  for (const text of ["Idea one", "Idea two", "Idea three"]) assert.equal((await app.call("POST", `/courses/${slug}/ideas`, { key: user.apiKey, body: { text } })).status, 200);

  const all = async (path: string, limit: string, key: (i: Json) => string) => {
    const out: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await app.call("GET", path, { ...A(), query: { limit, ...(cursor ? { cursor } : {}) } });
      assert.equal(r.status, 200, r.text);
      assert.ok(r.json.items.length <= Number(limit));
      out.push(...r.json.items.map(key));
      cursor = r.json.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 100);
    return { out, pages };
  };
  const runs = await all(`/admin/course/${slug}/mail-runs`, "2", (r) => r.kind);
  assert.deepEqual(runs, { out: ["last", "start", "day"], pages: 2 });
  const ideas = await all(`/admin/course/${slug}/ideas`, "2", (i) => i.text);
  assert.deepEqual(ideas.out.sort(), ["Idea one", "Idea three", "Idea two"]);
  assert.equal(ideas.pages, 2);
  const courses = await all("/admin/courses", "1", (c) => c.slug);
  assert.ok(courses.out.includes(slug));
  assert.equal(new Set(courses.out).size, courses.out.length, "no course twice");
  assert.equal(courses.pages, courses.out.length, "one course a page");
  for (const bad of ["x", "12:ab:cd"]) assert.equal((await app.call("GET", `/admin/course/${slug}/mail-runs`, { ...A(), query: { cursor: bad } })).status, 400, bad);
});

test("registrations are filtered, counted and paged in the database: a page of 5 of 40 reads 5 signups, whatever the filters; the course counts read none", async () => {
  const slug = await newCourse();
  const emails = Array.from({ length: 40 }, (_, i) => `reg-${String(i).padStart(2, "0")}@x.test`);
  assert.equal((await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails } })).status, 200);
  // Ten of them have an account (matched by email), and two of those the perk.
  for (const email of emails.slice(0, 10)) await app.rt.prisma.user.create({ data: { email } });
  const course = await app.rt.prisma.course.findUniqueOrThrow({ where: { slug } });
  for (const email of emails.slice(0, 2)) {
    const u = await app.rt.prisma.user.findUniqueOrThrow({ where: { email } });
    await app.rt.prisma.coursePerkGrant.create({ data: { courseId: course.id, userId: u.id, email, amountCents: 0 } });
  }
  const get = (query: Record<string, string>) => app.call("GET", `/admin/course/${slug}/registrations`, { ...A(), query });
  let r!: Awaited<ReturnType<typeof get>>;
  const read = await signupRowsRead(async () => {
    r = await get({ limit: "5", offset: "5" });
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual([r.json.total, r.json.items.map((i: Json) => i.email)], [40, emails.slice(5, 10)]);
  assert.ok(read <= 5, `read ${read} signups for a page of 5`);

  const withAccount = await get({ hasAccount: "true", claimed: "false", limit: "3", offset: "3" });
  assert.deepEqual([withAccount.json.total, withAccount.json.items.map((i: Json) => [i.email, i.hasAccount, i.perkClaimedAt === null])], [
    8,
    emails.slice(5, 8).map((e) => [e, true, true]),
  ]);
  const noAccount = await get({ hasAccount: "false", q: "reg-3", limit: "50" });
  assert.deepEqual(noAccount.json.items.map((i: Json) => i.email), emails.slice(30, 40));
  const claimed = await get({ claimed: "true" });
  assert.deepEqual([claimed.json.total, claimed.json.items.every((i: Json) => i.perkClaimedAt !== null)], [2, true]);
  const literal = await get({ q: "reg_1" });
  assert.equal(literal.json.total, 0, "an underscore is a character, not a wildcard");
  const past = await get({ offset: "100" });
  assert.deepEqual([past.json.total, past.json.items], [40, []]);

  // The counts on the course (and on each course of the list) are counted, not read.
  let got!: Json;
  assert.equal(await signupRowsRead(async () => void (got = (await app.call("GET", `/admin/course/${slug}`, A())).json)), 0);
  assert.deepEqual([got.stats.signups, got.stats.withAccount], [40, 10]);
});

test("the audit groups in the database and reads only what it shows: the biggest clusters with their first 100 members and `size`, the redeemers with `redeemerCount`", async () => {
  const slug = await newCourse();
  const emails = Array.from({ length: 150 }, (_, i) => `aud-${String(i).padStart(3, "0")}@x.test`);
  assert.equal((await app.call("POST", `/admin/course/${slug}/eligible`, { ...A(), body: { emails } })).status, 200);
  const course = await app.rt.prisma.course.findUniqueOrThrow({ where: { slug } });
  // 120 behind one IP (a campus), two sharing a device, one redeemer who follows the Page.
  await app.rt.prisma.courseSignup.updateMany({ where: { courseId: course.id, email: { in: emails.slice(0, 120) } }, data: { ip: "9.9.9.9" } });
  await app.rt.prisma.courseSignup.updateMany({ where: { courseId: course.id, email: { in: emails.slice(130, 132) } }, data: { fingerprint: "dev-z", socialHandle: "@Zed" } });
  assert.equal((await app.call("POST", `/admin/course/${slug}/coupons`, A())).status, 200);
  await app.rt.runtime.jobs!.idle();
  await app.rt.prisma.courseCoupon.updateMany({ where: { courseId: course.id, signup: { email: emails[130] } }, data: { redeemedAt: new Date() } });
  assert.equal((await app.call("PUT", `/admin/course/${slug}/followers`, { ...A(), body: { handles: ["zed", ...Array.from({ length: 500 }, (_, i) => `fan${i}`)] } })).status, 200);

  let audit!: Json;
  const read = await signupRowsRead(async () => {
    const r = await app.call("GET", `/admin/course/${slug}/audit`, A());
    assert.equal(r.status, 200, r.text);
    audit = r.json;
  });
  assert.deepEqual(
    audit.clusters.map((c: Json) => [c.by, c.value, c.size, c.members.length]),
    [
      ["ip", "9.9.9.9", 120, 100],
      ["fingerprint", "dev-z", 2, 2],
    ],
  );
  assert.deepEqual(audit.clusters[0].members.slice(0, 2).map((m: Json) => m.email), emails.slice(0, 2));
  assert.deepEqual(audit.clusters[1].members.map((m: Json) => [m.email, m.redeemed, m.followsPage]), [
    [emails[130], true, true],
    [emails[131], false, null],
  ]);
  assert.deepEqual([audit.redeemerCount, audit.redeemers.map((m: Json) => [m.email, m.followsPage])], [1, [[emails[130], true]]]);
  assert.equal(audit.followerSnapshot.count, 501);
  assert.ok(read <= 100 + 2 + 1, `read ${read} signups to show 103`);
});
