// Prisma compiles a query plan for every query shape it has not seen (its query compiler, in
// WebAssembly: about a millisecond of CPU each) and never caches createMany's or a query that
// carries a scalar list as a value (docs/database.md "Prisma's query plans"). This test counts the
// compiles of the hot paths once they are warm: an agent turn and an embedding job must compile none.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BASE_PATH } from "../auth/caller.ts";
import { resolveCaller } from "../auth/resolve.ts";
import { newApiKey, sha256 } from "../auth/tokens.ts";
import { createPipeline } from "../http/pipeline.ts";
import { CLIENT_IP_HEADER } from "../http/rate-limit.ts";
import { Router } from "../http/router.ts";
import { operations } from "../operations/index.ts";
import { embedNow } from "../services/search/embed-job.ts";
import { readResponse } from "../testing/http.ts";
import { createTestUser, createWaitingTodo, suiteTestRuntime } from "../testing/runtime.ts";

type Compiler = { compile(request: string): unknown };
// The module the generated client loads its compiler from (server/db/generated/internal/class.ts); it ships no types.
const COMPILER_MODULE: string = "@prisma/client/runtime/query_compiler_fast_bg.postgresql.mjs";
const { QueryCompiler } = (await import(COMPILER_MODULE)) as { QueryCompiler: { prototype: Compiler } };
const proto = QueryCompiler.prototype;
const original = proto.compile;
/** What was compiled (model and action) since the last take(). */
let compiled: string[] = [];
const take = () => {
  const out = compiled;
  compiled = [];
  return out;
};

// Registered first, so the compiler is counted from the runtime's start and put back before it closes.
before(() => {
  proto.compile = function (this: Compiler, request: string) {
    const q = JSON.parse(request) as { modelName?: string; action?: string };
    compiled.push(`${q.modelName ?? "(batch)"}.${q.action ?? "?"}`);
    return original.call(this, request);
  };
});
after(() => {
  proto.compile = original;
});
const t = suiteTestRuntime();

async function turn(content: string) {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Plans" } });
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, content);
  t.runtime.agent.start(todo.id);
  await t.runtime.agent.idle();
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "READY");
  return todo;
}

test("the counter sees Prisma's compiles", async () => {
  take();
  await t.prisma.block.createMany({ data: [] });
  assert.deepEqual(take(), ["Block.createMany"], "createMany is compiled on every call");
});

test("a warm agent turn that adds checklist blocks compiles no query plan", async () => {
  const list = (n: number) => `Trip ${n}:\n- passport\n- tickets\n- charger`;
  await turn(list(1));
  await turn(list(2));
  take();
  await turn(list(3));
  assert.deepEqual(take(), []);
});

test("a warm embedding job compiles no query plan, whatever its vector", async () => {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Vectors" } });
  const todos = await Promise.all(["buy apples", "fix the bike", "call the plumber about the sink"].map((content) => t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content } })));
  assert.equal(await embedNow("todo", todos[0]!.id), "stored");
  take();
  for (const todo of todos.slice(1)) assert.equal(await embedNow("todo", todo.id), "stored");
  assert.deepEqual(take(), []);
});

test("warm API calls on the hot paths compile no query plan: create and read todos, edit one, send messages (agent turns), an idempotent retry", async () => {
  const handle = createPipeline(new Router(operations), resolveCaller, "http://app.test");
  t.runtime.jobs!.start();
  const user = await createTestUser(t.prisma);
  const key = newApiKey();
  await t.prisma.apiKey.create({ data: { userId: user.id, name: "plans", keyHash: sha256(key), last4: key.slice(-4) } });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init = { method, headers: { "x-api-key": key, [CLIENT_IP_HEADER]: "192.0.2.7", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) };
    const res = await readResponse(await handle("api", new Request(`http://app.test${BASE_PATH.api}${path}`, init)));
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
    return res.json as { id: string };
  };
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "API plans" } });
  const round = async (n: number) => {
    const todo = await call("POST", `/projects/${project.id}/todos`, { content: `Round ${n}:\n- one\n- two`, startProcessing: true });
    await t.runtime.agent.idle();
    await call("GET", `/todos/${todo.id}?messageLimit=20`);
    await call("GET", `/projects/${project.id}`);
    await call("GET", `/projects/${project.id}/todos?limit=20`);
    await call("PUT", `/todos/${todo.id}`, { content: `Round ${n}, edited` });
    const send = { content: `More for round ${n}:\n- three` };
    await call("POST", `/todos/${todo.id}/messages`, send, { "idempotency-key": `round-${n}` });
    await call("POST", `/todos/${todo.id}/messages`, send, { "idempotency-key": `round-${n}` }); // the retry: replayed
    await t.runtime.agent.idle();
    await call("GET", `/todos/${todo.id}/messages?limit=20`);
    await t.runtime.jobs!.idle(); // the embedding jobs of the new and the edited text
  };
  await round(1);
  await round(2);
  take();
  await round(3);
  assert.deepEqual(take(), []);
});
