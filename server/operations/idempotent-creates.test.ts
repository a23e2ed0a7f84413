import { test } from "node:test";
import assert from "node:assert/strict";
import { suiteTestApp, type TestAppUser } from "../testing/app.ts";

// The real registry over a real database: the creates that billing, invites and todos rely on
// run once per Idempotency-Key, through every credential base (docs/api.md "Idempotent POSTs").

const app = suiteTestApp({ setup });
let ada: TestAppUser;
let projectId: string;

async function setup() {
  ada = await app.newUser();
  const project = await app.call("POST", "/projects", { key: ada.apiKey, body: { name: "P" } });
  assert.equal(project.status, 200);
  projectId = project.json.id;
}

test("concurrent project_createTodo calls with one key create one todo and answer the same bytes", async () => {
  const headers = { "idempotency-key": "todo-once" };
  const answers = await Promise.all(
    Array.from({ length: 6 }, () => app.call("POST", `/projects/${projectId}/todos`, { key: ada.apiKey, headers, body: { content: "Buy milk" } })),
  );
  for (const a of answers) assert.ok(a.status === 200 || a.status === 409, `${a.status} ${a.text}`);
  const ok = answers.filter((a) => a.status === 200);
  assert.ok(ok.length >= 1);
  assert.equal(new Set(ok.map((a) => a.text)).size, 1);
  assert.equal(await app.rt.prisma.todo.count({ where: { projectId } }), 1);
  const replay = await app.call("POST", `/projects/${projectId}/todos`, { key: ada.apiKey, headers, body: { content: "Buy milk" } });
  assert.equal(replay.text, ok[0]!.text);
  assert.equal(await app.rt.prisma.todo.count({ where: { projectId } }), 1);
});

test("the browser session is its own credential: the same key on the cookie base creates again, once", async () => {
  const headers = { "idempotency-key": "todo-twice" };
  const viaKey = await app.call("POST", `/projects/${projectId}/todos`, { key: ada.apiKey, headers, body: { content: "Buy milk" } });
  assert.equal(viaKey.status, 200);
  const before = await app.rt.prisma.todo.count({ where: { projectId } });
  const first = await app.call("POST", `/projects/${projectId}/todos`, { base: "cookie", cookie: ada.sessionCookie, headers, body: { content: "Buy milk" } });
  const again = await app.call("POST", `/projects/${projectId}/todos`, { base: "cookie", cookie: ada.sessionCookie, headers, body: { content: "Buy milk" } });
  assert.equal(first.status, 200);
  assert.notEqual(first.text, viaKey.text);
  assert.equal(again.text, first.text);
  assert.equal(await app.rt.prisma.todo.count({ where: { projectId } }), before + 1);
});
