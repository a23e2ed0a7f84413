import { test } from "node:test";
import assert from "node:assert/strict";
import { operations } from "../operations/index.ts";
import { suiteTestApp, type TestAppUser } from "../testing/app.ts";
import { call, getBridge, setBridge, type OperationResponse } from "./bridge.ts";

const app = suiteTestApp({ setup, teardown: () => setBridge(undefined) });
let owner: TestAppUser;
let stranger: TestAppUser;
let projectId: string;

async function setup() {
  [owner, stranger] = [await app.newUser(), await app.newUser()];
  projectId = (await app.rt.prisma.project.create({ data: { ownerId: owner.userId, name: "Bridge/ü" } })).id;
  setBridge({ handle: app.handle, runtime: app.rt.runtime, operations });
}

test("call answers what the pipeline answers, typed from the registry", async () => {
  const got = await call("cookie", "project_get", { params: { projectId } }, { cookie: owner.sessionCookie });
  assert.ok(got?.ok, JSON.stringify(got));
  const project: OperationResponse<"project_get"> = got.data;
  assert.equal(project.name, "Bridge/ü");
  assert.equal(project.role, "owner");
  const list = await call("cookie", "project_list", {}, { cookie: owner.sessionCookie });
  assert.ok(list?.ok);
  assert.deepEqual(
    list.data.map((p) => p.id),
    [projectId],
  );
});

test("errors come back in the API's shape: a stranger's 404, a missing credential's 401", async () => {
  assert.deepEqual(await call("cookie", "project_get", { params: { projectId } }, { cookie: stranger.sessionCookie }), {
    ok: false,
    status: 404,
    error: { message: "Project not found", code: "NOT_FOUND" },
  });
  const anonymous = await call("cookie", "project_get", { params: { projectId } });
  assert.equal(anonymous?.ok, false);
  assert.equal(anonymous?.status, 401);
});

test("path values are encoded, so one cannot reach another route; query values are sent", async () => {
  const sneaky = await call("cookie", "project_get", { params: { projectId: `${projectId}/todos` } }, { cookie: owner.sessionCookie });
  assert.equal(sneaky?.status, 404);
  const todo = await app.rt.prisma.todo.create({ data: { projectId, userId: owner.userId, content: "shared", isPublic: true } });
  for (let i = 0; i < 3; i++) await app.rt.prisma.message.create({ data: { todoId: todo.id, role: "user", content: `m${i}` } });
  const page = await call("api", "todo_getPublic", { params: { todoId: todo.id }, query: { messageLimit: 2 } });
  assert.ok(page?.ok, JSON.stringify(page));
  assert.deepEqual(
    page.data.messages.map((m) => m.content),
    ["m1", "m2"],
  );
  assert.ok(page.data.nextCursor);
});

test("without the custom server (no bridge) call is null", async () => {
  const bridge = getBridge();
  setBridge(undefined);
  try {
    assert.equal(await call("api", "project_list", {}), null);
  } finally {
    setBridge(bridge);
  }
});

test("the input is checked at compile time", () => {
  // Each line below is a type error; tsc --noEmit (part of the checks) fails if one is not.
  const compileOnly = (f: () => unknown) => typeof f;
  // @ts-expect-error an operationId the registry does not have
  compileOnly(() => call("api", "project_nope", {}));
  // @ts-expect-error project_get needs params.projectId
  compileOnly(() => call("api", "project_get", {}));
  // @ts-expect-error project_update needs a body
  compileOnly(() => call("api", "project_update", { params: { projectId: "x" } }));
  compileOnly(async () => {
    const r = await call("api", "project_list", {});
    // @ts-expect-error a project has no such field
    if (r?.ok) return r.data[0]?.nope;
  });
});
