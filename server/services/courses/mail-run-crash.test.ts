import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setLogLevel } from "../../log.ts";
import { killHard, until as waitFor, workerProcesses } from "../../testing/processes.ts";
import { createTestUser, withPostgresRuntime } from "../../testing/runtime.ts";
import { grantPerksToCourse } from "./courses.ts";
import { startMailRun } from "./mail-run.ts";

// On PostgreSQL (overlapping transactions, several processes): a bulk mailing to 2,000 signups
// whose worker process is killed with SIGKILL mid-run and started again mails every signup exactly
// once (one outbox file each); and perks granted by two overlapping runs are granted once each.

const SIGNUPS = 2000;
const pg = withPostgresRuntime(before, after);
const startWorker = workerProcesses();
let outboxDir = "";
before(async () => {
  setLogLevel("silent");
  outboxDir = await mkdtemp(path.join(tmpdir(), "course-crash-outbox-"));
});
after(async () => {
  if (outboxDir) await rm(outboxDir, { recursive: true, force: true });
});

const worker = (databaseUrl: string) => startWorker("server/testing/course-mail-worker.ts", { DATABASE_URL: databaseUrl, OUTBOX_DIR: outboxDir, COURSE_MAIL_PER_SECOND: "1000", REDIS_URL: "" });

/** A mailing of 2,000 takes a while on a loaded machine: 3 minutes, polled every 50 ms. */
const until = <T>(what: string, probe: () => Promise<T | undefined | null | false>) => waitFor(what, probe, 180_000, 50);

const mailFiles = async () => (await readdir(outboxDir)).filter((f) => f.endsWith(".json"));

test(`a bulk mailing to ${SIGNUPS} signups, its worker SIGKILLed mid-run and restarted: every signup mailed exactly once`, async (ctx) => {
  const rt = pg.get();
  if (!rt) return ctx.skip(pg.reason());
  const p = rt.prisma;
  const admin = await createTestUser(p, { isAdmin: true });
  const course = await p.course.create({ data: { slug: "crash", title: "Crash course", startsAt: new Date(Date.now() + 86_400_000) } });
  const emails = Array.from({ length: SIGNUPS }, (_, i) => `s${String(i).padStart(4, "0")}@crash.test`);
  await p.courseSignup.createMany({ data: emails.map((email) => ({ courseId: course.id, email })) });
  const caller = { userId: admin.id, email: admin.email, name: null, isAdmin: true } as never;
  const run = await startMailRun(caller, "crash", "start", false);
  assert.equal(run.total, SIGNUPS);

  const first = await worker(rt.databaseUrl!);
  await until("a part of the mailing", async () => (await mailFiles()).length >= SIGNUPS / 5);
  await killHard(first);
  const atKill = (await mailFiles()).length;
  assert.ok(atKill < SIGNUPS, `killed mid-way (${atKill} of ${SIGNUPS} mailed)`);
  const left = await p.courseMailRun.findUniqueOrThrow({ where: { id: run.id } });
  assert.equal(left.state, "running");

  const second = await worker(rt.databaseUrl!);
  const done = await until("the run done", async () => {
    const r = await p.courseMailRun.findUniqueOrThrow({ where: { id: run.id } });
    return r.state === "done" ? r : null;
  });
  second.kill("SIGTERM");
  assert.equal(done.sent, SIGNUPS);
  assert.equal(done.failed, 0);

  const perRecipient = new Map<string, number>();
  for (const f of await mailFiles()) {
    const m = JSON.parse(await readFile(path.join(outboxDir, f), "utf8")) as { to: string; subject: string };
    assert.equal(m.subject, "Crash course is starting");
    perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
  }
  assert.equal(perRecipient.size, SIGNUPS, "every signup mailed");
  const twice = [...perRecipient].filter(([, c]) => c !== 1);
  assert.deepEqual(twice, [], "nobody mailed twice");
  assert.equal(await p.courseMailRecipient.count({ where: { runId: run.id, status: "sent" } }), SIGNUPS);
  console.log(`course mail crash: ${atKill} of ${SIGNUPS} mailed when killed; resumed to ${perRecipient.size}, each once`);
});

test("perks granted by two overlapping runs: each user once, one ledger grant each", async (ctx) => {
  const rt = pg.get();
  if (!rt) return ctx.skip(pg.reason());
  const p = rt.prisma;
  const course = await p.course.create({ data: { slug: "perks", title: "Perks", startsAt: new Date(), perkCreditCents: 250 } });
  const users = await Promise.all(Array.from({ length: 20 }, () => createTestUser(p)));
  await p.courseSignup.createMany({ data: users.map((u) => ({ courseId: course.id, email: u.email })) });
  const [a, b, c] = await Promise.all([grantPerksToCourse(course), grantPerksToCourse(course), grantPerksToCourse(course)]);
  assert.equal(a.granted + b.granted + c.granted, 20);
  assert.equal(await p.coursePerkGrant.count({ where: { courseId: course.id } }), 20);
  assert.equal(await p.ledgerTransaction.count({ where: { reference: { startsWith: `course-perk:${course.id}:` } } }), 20);
  for (const u of users) assert.equal((await p.billingAccount.findUniqueOrThrow({ where: { userId: u.id } })).balanceCents, 250);
});
