import { expect, test } from "@playwright/test";
import { createUser, type TestUser } from "../support/users";
import { addMessage, createProject, createTodo, expectBadRequest, expectError, getTodo, h, inOneHour, listTodos, okJson, type Project, type Todo } from "../support/todos";

// Issue 9 A3, A4, A5, A7, A16: bad input is a 4xx in the error shape and changes nothing; other
// unicode round-trips unchanged (docs/api.md "Hostile input").

test.describe.configure({ timeout: 120_000 });

const NUL = "a\u0000b";
const LONE = "a\ud800b";
/** RTL override, zero-width joiner and space, emoji with a skin tone and ZWJ sequence, CJK, combining marks. */
const UNUSUAL = "\u202Eabc\u202C \u200D\u200B 👩🏽‍💻 🇫🇷 漢字かな한글 e\u0301 \uFEFF";
/** 10000-01-01T00:00:00Z: one past the bound. */
const YEAR_10000 = Date.UTC(10000, 0, 1);
const END_OF_9999 = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The JSON text of deep(levels), built without recursion (the client's own serializer would overflow). */
function deepJson(levels: number): string {
  return '{"n":'.repeat(levels - 1) + '{"leaf":true}' + "}".repeat(levels - 1);
}

function deep(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < levels; i++) v = { n: v };
  return v;
}

async function setup(info: Parameters<typeof createUser>[0]): Promise<{ u: TestUser; p: Project; t: Todo }> {
  const u = await createUser(info, "hostile");
  const p = await createProject(u, "Hostile");
  const t = await createTodo(u, p.id, { content: "Original", metadata: { keep: 1 } });
  return { u, p, t };
}

test.describe("A3: NUL and lone surrogates in any string are 400 and change nothing", () => {
  test("every write that takes a string", async ({}, info) => {
    const { u, p, t } = await setup(info);
    const api = u.session;
    const before = { projects: await okJson<unknown[]>(await api.get("/api/v1/projects", { headers: h(u) })), todo: await getTodo(u, t.id), list: await listTodos(u, p.id) };

    for (const bad of [NUL, LONE]) {
      const cases: [string, () => Promise<import("@playwright/test").APIResponse>, string][] = [
        ["project_create", () => api.post("/api/v1/projects", { headers: h(u), data: { name: bad } }), "body.name"],
        ["project_create description", () => api.post("/api/v1/projects", { headers: h(u), data: { name: "ok", description: bad } }), "body.description"],
        ["project_update", () => api.put(`/api/v1/projects/${p.id}`, { headers: h(u), data: { name: bad } }), "body.name"],
        ["project_createTodo", () => api.post(`/api/v1/projects/${p.id}/todos`, { headers: h(u), data: { content: bad } }), "body.content"],
        ["project_createTodo metadata value", () => api.post(`/api/v1/projects/${p.id}/todos`, { headers: h(u), data: { content: "x", metadata: { a: [{ b: bad }] } } }), "body.metadata.a.0.b"],
        ["project_createTodo metadata key", () => api.post(`/api/v1/projects/${p.id}/todos`, { headers: h(u), data: { content: "x", metadata: { [bad]: 1 } } }), "body.metadata"],
        ["project_upsertGroup", () => api.put(`/api/v1/projects/${p.id}/groups/g1`, { headers: h(u), data: { name: bad } }), "body.name"],
        ["project_startFromTemplate", () => api.post(`/api/v1/projects/${p.id}/todos/from-template`, { headers: h(u), data: { content: bad } }), "body.content"],
        ["todo_update", () => api.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { content: bad } }), "body.content"],
        ["todo_update metadata", () => api.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { metadata: { x: bad } } }), "body.metadata.x"],
        ["todo_addMessage", () => api.post(`/api/v1/todos/${t.id}/messages`, { headers: h(u), data: { content: bad, startProcessing: false } }), "body.content"],
        ["todo_updateMessage", () => api.patch(`/api/v1/todos/${t.id}/messages/${t.messages[0]!.id}`, { headers: h(u), data: { content: bad } }), "body.content"],
        ["todo_updateAndStart", () => api.post(`/api/v1/todos/${t.id}/update-start`, { headers: h(u), data: { messageId: t.messages[0]!.id, content: bad } }), "body.content"],
        ["user_setDefaultProject", () => api.post("/api/v1/users/default-project", { headers: h(u), data: { projectId: bad } }), "body.projectId"],
      ];
      for (const [name, call, path] of cases) {
        await test.step(`${name} (${bad === NUL ? "NUL" : "lone surrogate"})`, async () => {
          const body = await expectBadRequest(await call(), path);
          expect(body.message).toMatch(bad === NUL ? /NUL/ : /surrogate/);
        });
      }
    }

    expect(await okJson<unknown[]>(await api.get("/api/v1/projects", { headers: h(u) }))).toEqual(before.projects);
    const after = await getTodo(u, t.id);
    expect(after.content).toBe(before.todo.content);
    expect(after.metadata).toEqual({ keep: 1 });
    expect(after.messages.map((m) => m.content)).toEqual(before.todo.messages.map((m) => m.content));
    expect((await listTodos(u, p.id)).items.map((i) => i.id)).toEqual(before.list.items.map((i) => i.id));
  });

  test("NUL in a path or query value is 4xx in the error shape, with or without a credential", async ({ request }, info) => {
    const { u, p } = await setup(info);
    for (const path of ["/api/v1/todos/%00", "/api/v1/projects/%00", `/api/v1/projects/${p.id}/todos?search=%00`, `/api/v1/todos/x/messages?before=%00`, "/api/v1/apikeys/%00"]) {
      await test.step(path, async () => {
        await expectBadRequest(await u.session.get(path, { headers: h(u) }), path.includes("?") ? "query" : "path");
      });
    }
    for (const path of ["/api/v1/public/todos/%00", "/api/v1/projects/%00/brand", "/cookie/v1/public/todos/%00", "/dst/v1/projects/%00/brand"]) {
      await test.step(`${path} without a credential`, async () => {
        await expectBadRequest(await request.get(path), "path");
      });
    }
  });

  test("RTL overrides, zero-width characters, emoji and CJK round-trip unchanged", async ({}, info) => {
    const u = await createUser(info, "unicode");
    const p = await createProject(u, UNUSUAL);
    expect(p.name).toBe(UNUSUAL.trim());
    const t = await createTodo(u, p.id, { content: `x ${UNUSUAL} y`, metadata: { [UNUSUAL]: UNUSUAL } });
    const got = await getTodo(u, t.id);
    expect(got.content).toBe(`x ${UNUSUAL} y`);
    expect(got.metadata).toEqual({ [UNUSUAL]: UNUSUAL });
    expect(got.messages[0]!.content).toBe(`x ${UNUSUAL} y`);
    const found = await listTodos(u, p.id, { search: "漢字かな" });
    expect(found.items.map((i) => i.id)).toEqual([t.id]);
  });
});

test.describe("A4: free-form JSON is bounded", () => {
  test("metadata nested 5,000 levels deep is 400, at the bound it is kept", async ({}, info) => {
    const { u, p, t } = await setup(info);
    const count = (await listTodos(u, p.id)).items.length;
    await expectBadRequest(await u.session.post(`/api/v1/projects/${p.id}/todos`, { headers: { ...h(u), "content-type": "application/json" }, data: `{"content":"deep","metadata":${deepJson(5000)}}` }), "body");
    await expectBadRequest(await u.session.put(`/api/v1/todos/${t.id}`, { headers: { ...h(u), "content-type": "application/json" }, data: `{"metadata":${deepJson(5000)}}` }), "body");
    await expectBadRequest(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { metadata: deep(17) } }), "body.metadata");
    await expectBadRequest(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { metadata: { big: "x".repeat(70_000) } } }), "body.metadata");
    expect((await listTodos(u, p.id)).items).toHaveLength(count);
    expect((await getTodo(u, t.id)).metadata).toEqual({ keep: 1 });

    const ok = await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { metadata: deep(16) } });
    expect(ok.status(), await ok.text()).toBe(200);
    expect((await getTodo(u, t.id)).metadata).toEqual(deep(16));
  });
});

test.describe("A5: hostile URLs", () => {
  test("an out-of-range cursor is 400", async ({}, info) => {
    const { u, p } = await setup(info);
    for (const cursor of ["8640000000000001", "253402300800000", "-1", "1e400", "abc"]) {
      await test.step(cursor, async () => {
        await expectBadRequest(await u.session.get(`/api/v1/projects/${p.id}/todos?cursor=${cursor}`, { headers: h(u) }), "query.cursor");
      });
    }
    const ok = await listTodos(u, p.id, { cursor: END_OF_9999 });
    expect(ok.items).toHaveLength(1);
  });

  test("a broken percent-encoding is 400 in the error shape on every base", async ({ request }, info) => {
    const u = await createUser(info, "encoding");
    for (const path of ["/api/v1/todos/%E0%A4%A", "/api/v1/public/todos/%ED%A0%80", "/cookie/v1/todos/%E0%A4%A", "/dst/v1/projects/%ZZ/brand", "/api/v1/%"]) {
      await test.step(path, async () => {
        const res = await request.get(path, { headers: h(u) });
        await expectBadRequest(res, "path");
        expect(res.headers()["x-request-id"]).toBeTruthy();
        expect(res.headers()["content-type"]).toMatch(/application\/json/);
      });
    }
  });
});

test.describe("A7: dates are bounded; a refused date writes nothing", () => {
  test("scheduledAt past the year 9999 is 400 everywhere and nothing is written; lists keep working", async ({}, info) => {
    const { u, p, t } = await setup(info);
    const scheduled = await addMessage(u, t.id, { content: "later", scheduledAt: inOneHour() });
    const before = await listTodos(u, p.id);
    const todoBefore = await getTodo(u, t.id);
    await expectBadRequest(await u.session.post(`/api/v1/projects/${p.id}/todos`, { headers: h(u), data: { content: "far", scheduledAt: YEAR_10000 } }), "body.scheduledAt");
    await expectBadRequest(await u.session.post(`/api/v1/todos/${t.id}/messages`, { headers: h(u), data: { content: "far", scheduledAt: YEAR_10000 } }), "body.scheduledAt");
    await expectBadRequest(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { scheduledAt: YEAR_10000 } }), "body.scheduledAt");
    await expectBadRequest(await u.session.put(`/api/v1/todos/${t.id}`, { headers: h(u), data: { scheduledAt: -1 } }), "body.scheduledAt");

    await expectBadRequest(
      await u.session.patch(`/api/v1/todos/${t.id}/messages/${scheduled.id}`, { headers: h(u), data: { scheduledAt: 8_640_000_000_000_000 } }),
      "body.scheduledAt",
    );
    expect((await listTodos(u, p.id)).items.map((i) => i.id)).toEqual(before.items.map((i) => i.id));
    const todoAfter = await getTodo(u, t.id);
    expect(todoAfter.scheduledAt).toBe(todoBefore.scheduledAt);
    expect(todoAfter.messages.map((m) => [m.id, m.scheduledAt])).toEqual(todoBefore.messages.map((m) => [m.id, m.scheduledAt]));

    // The last instant of 9999 is accepted and round-trips, and the lists still answer.
    const last = await createTodo(u, p.id, { content: "at the bound", scheduledAt: END_OF_9999 });
    expect(last.scheduledAt).toBe(END_OF_9999);
    expect((await getTodo(u, last.id)).scheduledAt).toBe(END_OF_9999);
    expect((await listTodos(u, p.id)).items.map((i) => i.id)).toContain(last.id);
    const pending = await u.session.get("/api/v1/tasks/pending", { headers: h(u) });
    expect(pending.status(), await pending.text()).toBe(200);
  });
});

test.describe("A16: limit-like parameters are clamped, not refused", () => {
  test("messageLimit and limit above 200 are clamped; 0, negatives and fractions are 400", async ({}, info) => {
    const { u, p, t } = await setup(info);
    for (const messageLimit of ["201", "500", "100000000000000000000"]) {
      const got = await getTodo(u, t.id, { messageLimit });
      expect(got.messages).toHaveLength(1);
    }
    const page = await listTodos(u, p.id, { limit: "100000" });
    expect(page.items).toHaveLength(1);
    for (const bad of ["0", "-1", "1.5", "abc"]) {
      await expectBadRequest(await u.session.get(`/api/v1/todos/${t.id}?messageLimit=${bad}`, { headers: h(u) }), "query.messageLimit");
      await expectBadRequest(await u.session.get(`/api/v1/projects/${p.id}/todos?limit=${bad}`, { headers: h(u) }), "query.limit");
    }
    await expectError(await u.session.get(`/api/v1/todos/${t.id}/messages?limit=0`, { headers: h(u) }), 400, "BAD_REQUEST");
  });
});
