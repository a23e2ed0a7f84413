// Prisma compiles a query plan for every query shape it has not seen (its query compiler, in
// WebAssembly: about a millisecond of CPU each) and never caches createMany's or a query that
// carries a scalar list as a value (docs/database.md "Prisma's query plans"). This test counts the
// compiles of the hot paths once they are warm: an agent turn and an embedding job must compile none.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { setLogLevel } from "../log.ts";
import { embedNow } from "../services/search/embed-job.ts";
import { createTestUser, createWaitingTodo, startTestRuntime, type TestRuntime } from "../testing/runtime.ts";

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

let t: TestRuntime;
before(async () => {
  setLogLevel("silent");
  proto.compile = function (this: Compiler, request: string) {
    const q = JSON.parse(request) as { modelName?: string; action?: string };
    compiled.push(`${q.modelName ?? "(batch)"}.${q.action ?? "?"}`);
    return original.call(this, request);
  };
  t = await startTestRuntime();
});
after(async () => {
  proto.compile = original;
  await t.close();
});

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
