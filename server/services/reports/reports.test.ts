import { test } from "node:test";
import assert from "node:assert/strict";
import { suiteTestApp, type TestAppUser } from "../../testing/app.ts";
import type { Json } from "../../testing/http.ts";

// Reports of AI output from todo_reportAiOutput to the administrators' review (admin_aiReports,
// admin_setAiReportStatus), through the real pipeline.

const app = suiteTestApp({ setup });
let admin: TestAppUser;
let user: TestAppUser;
async function setup() {
  admin = await app.newUser({ isAdmin: true });
  user = await app.newUser();
}

const A = () => ({ key: admin.apiKey });

async function todoWithReply(content: string, reply: string) {
  const project = await app.rt.prisma.project.create({ data: { ownerId: user.userId, name: "Reports" } });
  const todo = await app.rt.prisma.todo.create({ data: { projectId: project.id, userId: user.userId, content } });
  const message = await app.rt.prisma.message.create({ data: { todoId: todo.id, role: "assistant", content: reply } });
  return { todoId: todo.id, messageId: message.id };
}

test("a report reaches the open list with the reporter, the reason, the details and the reported text; resolving moves it and is logged", async () => {
  const { todoId, messageId } = await todoWithReply("Plan the trip", `Something rude ${"x".repeat(1200)}`);
  const sent = await app.call("POST", "/report-ai-output", { key: user.apiKey, body: { todoId, messageId, reason: "offensive", details: "It insulted me." } });
  assert.equal(sent.status, 200, sent.text);
  const whole = await app.call("POST", "/report-ai-output", { key: user.apiKey, body: { todoId, reason: "incorrect" } });
  assert.equal(whole.status, 200, whole.text);

  const open = await app.call("GET", "/admin/ai-reports", A());
  assert.equal(open.status, 200, open.text);
  const [todoReport, messageReport] = open.json.items as Json[];
  assert.equal(todoReport.reason, "incorrect");
  assert.equal(todoReport.excerpt, "Plan the trip", "no message named: the todo's text");
  assert.equal(messageReport.reason, "offensive");
  assert.equal(messageReport.details, "It insulted me.");
  assert.equal(messageReport.status, "open");
  assert.equal(messageReport.todoId, todoId);
  assert.equal(messageReport.excerpt.length, 1000);
  assert.ok(messageReport.excerpt.startsWith("Something rude"));
  assert.match(messageReport.reporterEmail, /@/);

  const resolve = await app.call("PATCH", `/admin/ai-reports/${messageReport.id}`, { ...A(), body: { status: "resolved" } });
  assert.equal(resolve.status, 200, resolve.text);
  assert.deepEqual((await app.call("GET", "/admin/ai-reports", A())).json.items.map((r: Json) => r.id), [todoReport.id]);
  const resolved = await app.call("GET", "/admin/ai-reports?status=resolved", A());
  assert.deepEqual(resolved.json.items.map((r: Json) => [r.id, r.status]), [[messageReport.id, "resolved"]]);
  const logged = await app.call("GET", "/admin/log", A());
  assert.ok(logged.json.items.some((e: Json) => e.action === "ai_report.resolved" && e.target === messageReport.id));

  // Bad input changes nothing: an unknown report is 404, an unknown status 400.
  assert.equal((await app.call("PATCH", "/admin/ai-reports/cmissingreport00000000000", { ...A(), body: { status: "resolved" } })).status, 404);
  const bad = await app.call("PATCH", `/admin/ai-reports/${todoReport.id}`, { ...A(), body: { status: "deleted" } });
  assert.equal(bad.status, 400);
  assert.equal((await app.call("GET", "/admin/ai-reports?status=closed", A())).status, 400);
  assert.deepEqual((await app.call("GET", "/admin/ai-reports", A())).json.items.map((r: Json) => r.id), [todoReport.id]);
  // Not for anyone else.
  assert.equal((await app.call("GET", "/admin/ai-reports", { key: user.apiKey })).status, 403);
});

test("pages newest first with a cursor; a deleted todo leaves the report without its text", async () => {
  await app.rt.prisma.aiReport.deleteMany({});
  const { todoId, messageId } = await todoWithReply("Gone soon", "A reply");
  for (let i = 0; i < 5; i++) assert.equal((await app.call("POST", "/report-ai-output", { key: user.apiKey, body: { todoId, messageId, reason: "other", details: `#${i}` } })).status, 200);
  // Newest first, ties in time by id (two reports can share a millisecond).
  const order = (await app.rt.prisma.aiReport.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] })).map((r) => r.details);
  assert.equal(order.length, 5);
  const first = await app.call("GET", "/admin/ai-reports?limit=3", A());
  assert.deepEqual(first.json.items.map((r: Json) => r.details), order.slice(0, 3));
  const rest = await app.call("GET", `/admin/ai-reports?limit=3&cursor=${encodeURIComponent(first.json.nextCursor)}`, A());
  assert.deepEqual(rest.json.items.map((r: Json) => r.details), order.slice(3));
  assert.equal(rest.json.nextCursor, null);

  await app.rt.prisma.todo.delete({ where: { id: todoId } });
  const after = await app.call("GET", "/admin/ai-reports?limit=1", A());
  assert.deepEqual([after.json.items[0].todoId, after.json.items[0].excerpt], [null, null]);
});
