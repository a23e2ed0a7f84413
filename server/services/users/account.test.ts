import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { ZAccountDataExport } from "../../../lib/schemas/account.ts";
import { Prisma } from "../../db/generated/client.ts";
import { suiteTestApp, type TestAppUser } from "../../testing/app.ts";
import { ok, type Json } from "../../testing/http.ts";
import { createTestUser } from "../../testing/runtime.ts";
import { ensureCustomer } from "../billing/payments.ts";
import { postTransaction } from "../billing/ledger.ts";
import { stripeGateway } from "../billing/stripe.ts";
import { ACCOUNT_TABLES } from "./account-data.ts";

// user_exportData and user_deleteAccount through the real pipeline (docs/api.md "Account export
// and deletion"). The socket side of deletion is in e2e/api/account.spec.ts.

const app = suiteTestApp();

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** A user with a project, a todo with two messages, and a marker in each. */
async function withContent(u: TestAppUser, marker: string) {
  const project = await ok(app.call("POST", "/projects", { key: u.apiKey, body: { name: `P ${marker}` } }));
  const todo = await ok(app.call("POST", `/projects/${project.id}/todos`, { key: u.apiKey, body: { content: `todo ${marker}` } }));
  await ok(app.call("POST", `/todos/${todo.id}/messages`, { key: u.apiKey, body: { content: `message ${marker}`, startProcessing: false } }));
  return { projectId: project.id as string, todoId: todo.id as string };
}

async function exportOf(u: TestAppUser): Promise<{ text: string; json: Json; headers: Headers }> {
  const res = await app.handle("api", new Request("http://app.test/api/v1/users/export", { headers: { "x-api-key": u.apiKey } }));
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return { text, json: JSON.parse(text), headers: res.headers };
}

/** Every row of every table whose text, JSON or array columns mention `needle` (case-insensitive). */
async function rowsMentioning(needles: string[]): Promise<string[]> {
  const columns = await app.rt.prisma.$queryRaw<{ table_name: string; column_name: string }[]>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
      AND (data_type IN ('text', 'jsonb', 'json', 'character varying') OR data_type = 'ARRAY')`;
  assert.ok(columns.length > 50, "information_schema lists the tables");
  const hits: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const rows = await app.rt.prisma.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT count(*) AS n FROM "${table_name}" WHERE position(lower($1) in lower("${column_name}"::text)) > 0`,
        needle,
      );
      if (Number(rows[0]!.n) > 0) hits.push(`${table_name}.${column_name} mentions ${needle}`);
    }
  }
  return hits;
}

test("every table of the schema says what export and deletion do with it, and the export sections exist", () => {
  const models = Object.values(Prisma.ModelName).sort();
  assert.deepEqual(Object.keys(ACCOUNT_TABLES).sort(), models, "a model is missing from ACCOUNT_TABLES (server/services/users/account-data.ts)");
  const keys = new Set(Object.keys(ZAccountDataExport.shape));
  const claimed = new Set<string>();
  for (const [model, d] of Object.entries(ACCOUNT_TABLES)) {
    assert.ok(d.deletion.length > 3, `${model}: deletion is described`);
    if ("sections" in d.export) for (const s of d.export.sections) {
      assert.ok(keys.has(s), `${model}: export section ${s} is a key of AccountDataExport`);
      claimed.add(s);
    }
    else assert.ok(d.export.omitted.length > 10, `${model}: the reason it is not exported`);
  }
  for (const k of keys) if (!["format", "version", "exportedAt"].includes(k)) assert.ok(claimed.has(k), `export section ${k} is claimed by a table`);
});

test("the export holds the account's content as stored and no secret, and nothing of another user", async () => {
  const [a, b, stranger] = [await app.newUser(), await app.newUser(), await app.newUser()];
  const secrets: string[] = [a.apiKey, sha256(a.apiKey), a.sessionCookie.split("=")[1]!];
  const second = await ok(app.call("POST", "/apikeys", { key: a.apiKey, body: { name: "second" } }));
  secrets.push(second.key, sha256(second.key));
  const mine = await withContent(a, "A-OWN");
  // Content exactly as stored: markup, unicode, whitespace.
  const raw = "  <b>x</b> & \"quotes\" \u2028 emoji 🧪 \\n not a newline\n";
  await ok(app.call("POST", `/todos/${mine.todoId}/messages`, { key: a.apiKey, body: { content: raw, startProcessing: false } }));
  const enrolled = await ok(app.call("POST", "/cli/device/enroll-self", { key: a.apiKey, body: { name: "laptop" } }));
  secrets.push(enrolled.device.secret, enrolled.apiToken, sha256(enrolled.device.secret), sha256(enrolled.apiToken));
  const exchanged = await ok(app.call("POST", "/cli/device/token", { body: { deviceId: enrolled.device.id, deviceSecret: enrolled.device.secret } }));
  const mayfly = await ok(app.call("POST", "/cli/mayfly/token", { key: a.apiKey, body: { todoId: mine.todoId } }));
  secrets.push(exchanged.apiToken, mayfly.apiToken);
  for (const row of await app.rt.prisma.deviceToken.findMany({ where: { userId: a.userId } })) secrets.push(row.tokenHash);
  // b shares a project with a; b's other project and the stranger's are not a's.
  const bShared = await withContent(b, "B-SHARED");
  await ok(app.call("POST", `/projects/${bShared.projectId}/share`, { key: b.apiKey, body: { email: a.email, role: "viewer" } }));
  await withContent(b, "B-PRIVATE");
  await withContent(stranger, "STRANGER");

  const { text, json, headers } = await exportOf(a);
  assert.match(headers.get("content-disposition") ?? "", /^attachment; filename="todo-service-export-\d{4}-\d{2}-\d{2}\.json"$/);
  assert.equal(headers.get("cache-control"), "no-store");
  for (const s of secrets) assert.ok(!text.includes(s), `a secret is in the export: ${s.slice(0, 8)}…`);
  assert.ok(!/tsk_[0-9A-Za-z]{20}|dst_[0-9A-Za-z]{20}/.test(text), "no key or token shape");
  for (const marker of ["B-PRIVATE", "STRANGER", "B-SHARED"]) assert.ok(!text.includes(`message ${marker}`), `${marker} is not a's content`);
  assert.ok(!text.includes(stranger.email));

  const parsed = ZAccountDataExport.parse(json);
  assert.deepEqual(Object.keys(json).sort(), Object.keys(ZAccountDataExport.shape).sort());
  assert.equal(parsed.user.id, a.userId);
  assert.deepEqual(parsed.projects.map((p) => p.name), ["P A-OWN"]);
  assert.deepEqual(parsed.sharedWithMe.map((s) => [s.projectId, s.role]), [[bShared.projectId, "viewer"]]);
  assert.deepEqual(parsed.todos.map((t) => t.content), ["todo A-OWN"]);
  const stored = await app.rt.prisma.message.findMany({ where: { todoId: mine.todoId }, orderBy: { seq: "asc" } });
  assert.ok(stored.some((m) => m.content.includes("emoji 🧪 \\n not a newline")));
  assert.deepEqual(
    parsed.messages.filter((m) => m.todoId === mine.todoId).map((m) => [m.id, m.content]),
    stored.map((m) => [m.id, m.content]),
    "messages exactly as stored",
  );
  // Each user message names its author (a, who wrote them); the agent's would name none.
  assert.deepEqual(
    parsed.messages.filter((m) => m.todoId === mine.todoId).map((m) => [m.role, m.authorId]),
    stored.map((m) => [m.role, m.role === "user" ? a.userId : null]),
  );
  assert.deepEqual(parsed.apiKeys.map((k) => k.name).sort(), ["second", "test"]);
  assert.equal(parsed.apiKeys.find((k) => k.name === "second")!.last4, second.key.slice(-4));
  assert.deepEqual(parsed.devices.map((d) => d.name), ["laptop"]);
  assert.ok(!("secretHash" in json.devices[0]));
});

test("the export holds the messages the account wrote in others' todos, in chat order, and nothing else of those todos", async () => {
  const [a, b] = [await app.newUser(), await app.newUser()];
  const theirs = await withContent(b, "B-TODO");
  await ok(app.call("POST", `/projects/${theirs.projectId}/share`, { key: b.apiKey, body: { email: a.email, role: "editor" } }));
  const said = [];
  for (const content of ["a's first word", "a's second word"]) {
    said.push(await ok(app.call("POST", `/todos/${theirs.todoId}/messages`, { key: a.apiKey, body: { content, startProcessing: false } })));
    await ok(app.call("POST", `/todos/${theirs.todoId}/messages`, { key: b.apiKey, body: { content: `b answers ${content}`, startProcessing: false } }));
  }
  const mine = await withContent(a, "A-TODO");

  const { text, json } = await exportOf(a);
  const parsed = ZAccountDataExport.parse(json);
  assert.deepEqual(parsed.todos.map((t) => t.id), [mine.todoId], "b's todo is not a's to take");
  assert.deepEqual(
    parsed.messages.filter((m) => m.todoId === theirs.todoId).map((m) => [m.id, m.content, m.authorId]),
    said.map((m) => [m.id, m.content, a.userId]),
  );
  for (const theirWords of ["b answers", "todo B-TODO", "message B-TODO"]) assert.ok(!text.includes(theirWords), `b's words stay b's: ${theirWords}`);
  // b's export holds the whole todo, a's words included, each naming who wrote it.
  const ofB = ZAccountDataExport.parse((await exportOf(b)).json);
  assert.deepEqual(
    ofB.messages.filter((m) => m.role === "user").map((m) => [m.content, m.authorId === a.userId ? "a" : "b"]),
    [
      ["todo B-TODO", "b"],
      ["message B-TODO", "b"],
      ["a's first word", "a"],
      ["b answers a's first word", "b"],
      ["a's second word", "a"],
      ["b answers a's second word", "b"],
    ],
  );
});

test("the export pages through more rows than a page holds, each once, and another user's rows in between never appear", async () => {
  const [a, b] = [await app.newUser(), await app.newUser()];
  const { todoId } = await withContent(a, "MANY");
  const other = await withContent(b, "OTHER");
  const count = 1203;
  // Interleaved ids: a's and b's messages alternate in id order, so every page boundary sees both.
  const rows = Array.from({ length: count * 2 }, (_, i) => ({
    id: `m${String(i).padStart(6, "0")}${i % 2 ? "b" : "a"}`,
    todoId: i % 2 ? other.todoId : todoId,
    role: "user" as const,
    content: `bulk ${i % 2 ? "OTHER" : "MINE"} ${i}`,
  }));
  await app.rt.prisma.message.createMany({ data: rows });
  // More todos than one batch of todos (100), each with a few messages and a block.
  const project = await app.rt.prisma.todo.findUniqueOrThrow({ where: { id: todoId }, select: { projectId: true } });
  const many = Array.from({ length: 230 }, (_, i) => ({ id: `t${String(i).padStart(4, "0")}${a.userId}`, projectId: project.projectId, userId: a.userId, content: `many ${i}` }));
  await app.rt.prisma.todo.createMany({ data: many });
  await app.rt.prisma.message.createMany({ data: many.flatMap((t) => [0, 1, 2].map((k) => ({ id: `${t.id}m${k}`, todoId: t.id, role: "user" as const, content: `few ${k}` }))) });
  await app.rt.prisma.block.createMany({ data: many.map((t) => ({ id: `${t.id}b`, todoId: t.id, messageId: `${t.id}m0`, type: "checklist" })) });
  const { json } = await exportOf(a);
  const messages = json.messages as { id: string; todoId: string; seq: string; content: string }[];
  const bulk = messages.filter((m) => m.content.startsWith("bulk"));
  assert.equal(bulk.length, count);
  assert.equal(new Set(bulk.map((m) => m.id)).size, count, "no message twice");
  assert.ok(bulk.every((m) => m.content.startsWith("bulk MINE")));
  assert.deepEqual(bulk.map((m) => BigInt(m.seq)), bulk.map((m) => BigInt(m.seq)).sort((x, y) => (x < y ? -1 : 1)), "chat order within a todo");
  assert.equal(messages.filter((m) => m.content.startsWith("few")).length, 230 * 3);
  assert.equal(new Set(messages.map((m) => m.id)).size, messages.length);
  assert.equal((json.blocks as unknown[]).length, 230);
  assert.equal((json.todos as unknown[]).length, 231);
});

test("the export needs a person's credential: no credential is 401, a device token's base does not serve it", async () => {
  const u = await app.newUser();
  assert.equal((await app.call("GET", "/users/export")).status, 401);
  const enrolled = await ok(app.call("POST", "/cli/device/enroll-self", { key: u.apiKey, body: {} }));
  const res = await app.call("GET", "/users/export", { base: "dst", headers: { authorization: `Bearer ${enrolled.apiToken}` } });
  assert.equal(res.status, 404, res.text);
  assert.equal((await app.call("GET", "/users/export", { base: "cookie", cookie: u.sessionCookie })).status, 200);
});

test("deletion needs the account's email typed: missing is 400, another value 422, and nothing changes", async () => {
  const u = await app.newUser();
  await withContent(u, "KEEP");
  const missing = await app.call("DELETE", "/users/account", { key: u.apiKey, body: {} });
  assert.equal(missing.status, 400, missing.text);
  assert.equal(missing.json.code, "BAD_REQUEST");
  const wrong = await app.call("DELETE", "/users/account", { key: u.apiKey, body: { confirm: "someone@else.test" } });
  assert.equal(wrong.status, 422, wrong.text);
  assert.equal(wrong.json.code, "UNPROCESSABLE_CONTENT");
  assert.equal((await app.call("DELETE", "/users/account", { key: u.apiKey, rawBody: "{not json" })).status, 400);
  assert.equal((await app.call("GET", "/users/profile", { key: u.apiKey })).status, 200);
  assert.equal(await app.rt.prisma.todo.count({ where: { userId: u.userId } }), 1);
  // Through the cookie base the same-origin check applies like every state change.
  const cross = await app.call("DELETE", "/users/account", { base: "cookie", cookie: u.sessionCookie, body: { confirm: u.email }, headers: { origin: "http://evil.test" } });
  assert.equal(cross.status, 403, cross.text);
  assert.equal((await app.call("GET", "/users/profile", { key: u.apiKey })).status, 200);
});

test("deletion removes every row naming the account, keeps accounting anonymised, deletes the Stripe customer; sharees get 404; credentials 401; the same email starts empty", async () => {
  const [u, reader, outsider] = [await app.newUser(), await app.newUser(), await app.newUser()];
  const email = u.email;
  const { projectId, todoId } = await withContent(u, "GOING");
  await ok(app.call("POST", `/projects/${projectId}/share`, { key: u.apiKey, body: { email: reader.email, role: "viewer" } }));
  assert.equal((await app.call("GET", `/todos/${todoId}`, { key: reader.apiKey })).status, 200);
  // A todo u wrote in the outsider's project (shared with u as editor) goes too; the project stays.
  const theirs = await withContent(outsider, "THEIRS");
  await ok(app.call("POST", `/projects/${theirs.projectId}/share`, { key: outsider.apiKey, body: { email, role: "editor" } }));
  const written = await ok(app.call("POST", `/projects/${theirs.projectId}/todos`, { key: u.apiKey, body: { content: "u wrote this" } }));
  // A message u wrote in the outsider's todo stays in their chat, without its author.
  const said = await ok(app.call("POST", `/todos/${theirs.todoId}/messages`, { key: u.apiKey, body: { content: "u said this", startProcessing: false } }));
  assert.equal(said.authorId, u.userId);
  const enrolled = await ok(app.call("POST", "/cli/device/enroll-self", { key: u.apiKey, body: { name: "box" } }));
  await app.rt.prisma.memoryNote.create({ data: { userId: u.userId, projectId, content: "note" } });
  await app.rt.prisma.memoryNote.create({ data: { userId: reader.userId, projectId, content: "reader's note on u's project" } });
  await app.rt.prisma.user.update({ where: { id: reader.userId }, data: { defaultProjectId: projectId } });
  const course = await app.rt.prisma.course.create({ data: { slug: `c-${randomUUID()}`, title: "Course", startsAt: new Date() } });
  const signup = await app.rt.prisma.courseSignup.create({ data: { courseId: course.id, email } });
  await app.rt.prisma.courseCoupon.create({ data: { courseId: course.id, signupId: signup.id, code: `C-${randomUUID()}`, redeemedAt: new Date(), redeemedById: u.userId, redeemedIp: "203.0.113.9" } });
  await app.rt.prisma.coursePerkGrant.create({ data: { courseId: course.id, userId: u.userId, email, amountCents: 100 } });
  await app.rt.prisma.courseMailRecipient.create({ data: { run: { create: { courseId: course.id, kind: "day", total: 1, createdById: "some-admin" } }, signupId: signup.id, email, status: "sent" } });
  await app.rt.prisma.courseIdea.create({ data: { courseId: course.id, authorId: u.userId, text: "idea" } });
  const customerId = await ensureCustomer(u.userId);
  const nonce = randomUUID();
  await postTransaction(u.userId, { amountCents: 500, kind: "grant", description: `grant for ${email}`, reference: `grant-${nonce}-${u.userId}` });
  await postTransaction(u.userId, { amountCents: -120, kind: "usage_charge", description: "turn" });
  await app.rt.prisma.invoice.create({ data: { userId: u.userId, stripeInvoiceId: `in_test_${nonce}`, amountCents: 900, status: "paid" } });
  const ledgerBefore = await app.rt.prisma.ledgerTransaction.findMany({ where: { userId: u.userId }, orderBy: { createdAt: "asc" } });
  assert.equal(ledgerBefore.length, 2);

  const del = await app.call("DELETE", "/users/account", { base: "cookie", cookie: u.sessionCookie, body: { confirm: ` ${email.toUpperCase()} ` } });
  assert.equal(del.status, 200, del.text);
  assert.deepEqual(del.json, { success: true });

  // Every credential is refused at once.
  assert.equal((await app.call("GET", "/users/profile", { key: u.apiKey })).status, 401);
  assert.equal((await app.call("GET", "/users/profile", { base: "cookie", cookie: u.sessionCookie })).status, 401);
  assert.equal((await app.call("GET", "/devices", { base: "dst", headers: { authorization: `Bearer ${enrolled.apiToken}` } })).status, 401);
  assert.equal((await app.call("POST", "/cli/device/token", { body: { deviceId: enrolled.device.id, deviceSecret: enrolled.device.secret } })).status, 401);
  // The reader of the shared project: gone, as if it never existed.
  assert.equal((await app.call("GET", `/projects/${projectId}`, { key: reader.apiKey })).status, 404);
  assert.equal((await app.call("GET", `/todos/${todoId}`, { key: reader.apiKey })).status, 404);
  assert.equal((await ok(app.call("GET", "/users/profile", { key: reader.apiKey }))).defaultProjectId, null);
  // The outsider keeps their project; u's todo in it is gone.
  assert.equal((await app.call("GET", `/todos/${theirs.todoId}`, { key: outsider.apiKey })).status, 200);
  assert.equal((await app.call("GET", `/todos/${written.id}`, { key: outsider.apiKey })).status, 404);
  const kept = (await ok(app.call("GET", `/todos/${theirs.todoId}/messages`, { key: outsider.apiKey }))).items.find((m: Json) => m.id === said.id);
  assert.deepEqual([kept?.content, kept?.authorId], ["u said this", null]);

  // No row anywhere names the account: its id or its email, in any text, JSON or array column.
  assert.deepEqual(await rowsMentioning([u.userId, email]), []);
  // What accounting keeps: the same amounts and references (the user id in one replaced), under an opaque account reference.
  const archived = await app.rt.prisma.accountingArchive.findMany({ where: { reference: { in: [`grant-${nonce}-deleted-account`, `in_test_${nonce}`] } } });
  assert.equal(archived.length, 2);
  const refs = new Set(archived.map((r) => r.accountRef));
  assert.equal(refs.size, 1);
  const all = await app.rt.prisma.accountingArchive.findMany({ where: { accountRef: [...refs][0]! } });
  assert.deepEqual(all.filter((r) => r.source === "ledger").map((r) => r.amountCents).sort(), ledgerBefore.map((r) => r.amountCents).sort());
  assert.deepEqual(all.filter((r) => r.source === "invoice").map((r) => r.amountCents), [900]);

  // The Stripe customer is deleted by the job, through the SDK.
  await app.rt.runtime.jobs!.start();
  await app.rt.runtime.jobs!.idle();
  const { client } = await stripeGateway();
  await assert.rejects(client.customers.retrieve(customerId), (e: { statusCode?: number }) => e.statusCode === 404);
  assert.equal(await app.rt.prisma.job.count({ where: { name: "account.stripe-cleanup" } }), 0, "the job finished");

  // The same email signs up again: an empty account.
  const again = await createTestUser(app.rt.prisma, { email });
  assert.notEqual(again.id, u.userId);
  const { createKeyForUser } = await import("../api-keys/api-keys.ts");
  const key = await createKeyForUser(again.id, "new");
  const fresh = ZAccountDataExport.parse((await exportOf({ ...u, userId: again.id, apiKey: key.key })).json);
  assert.deepEqual([fresh.projects, fresh.todos, fresh.messages, fresh.sharedWithMe, fresh.devices, fresh.billing.transactions, fresh.courseSignups], [[], [], [], [], [], [], []]);
  assert.equal((await ok(app.call("GET", "/projects", { key: key.key }))).length, 0);
});

test("an owner with others in the team cannot delete the account (409 owns_team, nothing changes) until a member accepts the team; a member leaving is logged without naming them; alone, the team goes", async () => {
  const [owner, member, admin] = [await app.newUser(), await app.newUser(), await app.newUser()];
  const shared = await withContent(owner, "TEAM");
  const t0 = Date.now() - 60_000;
  const team = await app.rt.prisma.team.create({
    data: {
      ownerId: owner.userId,
      name: "Crew",
      projectId: shared.projectId,
      members: {
        create: [
          { userId: owner.userId, role: "owner", via: "owner", createdAt: new Date(t0) },
          { userId: member.userId, role: "member", createdAt: new Date(t0 + 1000) },
          { userId: admin.userId, role: "admin", createdAt: new Date(t0 + 2000) },
        ],
      },
      activity: { create: { kind: "created", actorId: owner.userId, userId: owner.userId } },
    },
    include: { members: true },
  });
  const ownerEmail = owner.email;
  const refused = await app.call("DELETE", "/users/account", { key: owner.apiKey, body: { confirm: ownerEmail } });
  assert.equal(refused.status, 409, refused.text);
  assert.deepEqual(refused.json.data, { reason: "owns_team", teamId: team.id, members: 2 });
  assert.match(refused.json.message, /Crew.*2 other members/);
  // Nothing changed: the account, its credential, the team and its shared project are all there.
  assert.equal((await app.call("GET", "/users/profile", { key: owner.apiKey })).status, 200);
  const still = await app.rt.prisma.team.findUniqueOrThrow({ where: { id: team.id }, include: { members: true } });
  assert.equal(still.ownerId, owner.userId);
  assert.equal(still.members.length, 3);
  assert.equal((await app.call("GET", `/todos/${shared.todoId}`, { key: member.apiKey })).status, 200);

  // The owner offers the team, the admin accepts it: the former owner is now a member and may go.
  const adminRow = team.members.find((m) => m.userId === admin.userId)!;
  assert.equal((await app.call("PATCH", `/billing/team/members/${adminRow.id}/role`, { key: owner.apiKey, body: { role: "owner" } })).status, 200);
  assert.equal((await app.call("PATCH", `/billing/team/members/${adminRow.id}/role`, { key: admin.apiKey, body: { role: "owner" } })).status, 200);
  assert.equal((await app.call("DELETE", "/users/account", { key: owner.apiKey, body: { confirm: ownerEmail } })).status, 200);
  const after = await app.rt.prisma.team.findUniqueOrThrow({ where: { id: team.id }, include: { members: true } });
  assert.equal(after.ownerId, admin.userId);
  assert.equal(after.members.length, 2);
  assert.deepEqual(await rowsMentioning([owner.userId, ownerEmail]), []);

  // A member leaving by deletion: the team stays, the log keeps a nameless entry.
  const memberEmail = member.email;
  assert.equal((await app.call("DELETE", "/users/account", { key: member.apiKey, body: { confirm: memberEmail } })).status, 200);
  assert.equal(await app.rt.prisma.teamMember.count({ where: { teamId: team.id } }), 1, "the new owner alone");
  assert.ok(await app.rt.prisma.teamActivity.findFirst({ where: { teamId: team.id, kind: "left" } }));

  // Alone in a team: it is dissolved.
  const solo = await app.newUser();
  const soloTeam = await app.rt.prisma.team.create({ data: { ownerId: solo.userId, name: "Solo", members: { create: { userId: solo.userId, role: "owner", via: "owner" } } } });
  assert.equal((await app.call("DELETE", "/users/account", { key: solo.apiKey, body: { confirm: solo.email } })).status, 200);
  assert.equal(await app.rt.prisma.team.count({ where: { id: soloTeam.id } }), 0);
});
