import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { BASE_PATH } from "../auth/caller.ts";
import { resolveCaller } from "../auth/resolve.ts";
import { newDeviceToken, sha256 } from "../auth/tokens.ts";
import { basesOf } from "../http/define.ts";
import { createPipeline } from "../http/pipeline.ts";
import { CLIENT_IP_HEADER } from "../http/rate-limit.ts";
import { Router } from "../http/router.ts";
import { createTestUser, suiteTestRuntime, type TestRuntime } from "../testing/runtime.ts";
import { readResponse } from "../testing/http.ts";
import type { AnyOperation } from "../http/define.ts";
import { operations } from "./index.ts";

// Issue 9 A11: walks the WHOLE registry with a todo-scoped (mayfly) token. Every operation added
// later is covered without touching this file: refused unless it declares `todoScope`, and then
// only on the token's own todo.

const APP = "http://app.test";
const handle = createPipeline(new Router(operations), resolveCaller, APP);

/** Mints a mayfly token the way the CLI operation will store one (server/auth/tokens.ts). */
async function mintMayflyToken(t: TestRuntime, userId: string, todoId: string): Promise<string> {
  const token = newDeviceToken();
  await t.prisma.deviceToken.create({ data: { userId, kind: "mayfly", todoId, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 15 * 60_000) } });
  return token;
}

const t = suiteTestRuntime({ setup });
let token: string;
let ids: { projectId: string; mine: string; other: string; mineMessage: string; otherMessage: string; userId: string };

async function setup() {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Scoped" } });
  const todo = (content: string) => t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content, status: "READY" } });
  const [mine, other] = [await todo("mine"), await todo("other")];
  const message = (todoId: string) => t.prisma.message.create({ data: { todoId, role: "user", content: "hello", state: "DONE" } });
  const [mineMessage, otherMessage] = [await message(mine.id), await message(other.id)];
  ids = { projectId: project.id, mine: mine.id, other: other.id, mineMessage: mineMessage.id, otherMessage: otherMessage.id, userId: user.id };
  token = await mintMayflyToken(t, user.id, mine.id);
}

function pathOf(op: AnyOperation, todoId: string, messageId: string): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === "todoId" ? todoId : name === "projectId" ? ids.projectId : name === "messageId" ? messageId : "x",
  );
}

async function call(op: AnyOperation, opts: { todoId: string; messageId: string; body?: unknown; withToken?: boolean }) {
  const headers: Record<string, string> = { [CLIENT_IP_HEADER]: "192.0.2.1" };
  if (opts.withToken !== false) headers.authorization = `Bearer ${token}`;
  const hasBody = op.method !== "GET" && op.method !== "DELETE" ? true : opts.body !== undefined;
  if (hasBody) headers["content-type"] = "application/json";
  const res = await handle(
    "dst",
    new Request(`${APP}${BASE_PATH.dst}${pathOf(op, opts.todoId, opts.messageId)}`, {
      method: op.method,
      headers,
      body: hasBody ? JSON.stringify(opts.body ?? { todoId: opts.todoId }) : undefined,
    }),
  );
  return readResponse(res);
}

/** Everything a refused call could have changed. */
async function snapshot() {
  const [users, projects, todos, messages, shares, keys, tokens] = await Promise.all([
    t.prisma.user.findMany({ orderBy: { id: "asc" } }),
    t.prisma.project.findMany({ orderBy: { id: "asc" } }),
    t.prisma.todo.findMany({ orderBy: { id: "asc" } }),
    t.prisma.message.findMany({ orderBy: { id: "asc" } }),
    t.prisma.projectShare.findMany({ orderBy: { id: "asc" } }),
    t.prisma.apiKey.findMany({ orderBy: { id: "asc" } }),
    t.prisma.deviceToken.findMany({ orderBy: { id: "asc" } }),
  ]);
  return JSON.stringify({ users, projects, todos, messages, shares, keys, tokens }, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

describe("a todo-scoped token walks the whole registry", () => {
  test("outside its todo: 403 on every operation served to devices, 404/405 where devices are not served, public ones as for nobody; nothing changes", async () => {
    const beforeState = await snapshot();
    const seen = { forbidden: 0, notServed: 0, public: 0 };
    for (const op of operations) {
      const res = await call(op, { todoId: ids.other, messageId: ids.otherMessage });
      const label = `${op.id} (${op.method} ${op.path}): ${res.text}`;
      if (!basesOf(op).includes("dst")) {
        // Not routed on /dst/v1 at all: 404, or 405 where the path exists there with another method.
        assert.ok(res.status === 404 || res.status === 405, label);
        assert.match(res.json.message, /is not (served|supported) (under|at) \/dst\/v1/, label);
        seen.notServed++;
      } else if (op.auth === "none") {
        // A public operation: the scoped token must get exactly what no credential gets.
        const anonymous = await call(op, { todoId: ids.other, messageId: ids.otherMessage, withToken: false });
        assert.equal(res.status, anonymous.status, label);
        assert.deepEqual(res.json, anonymous.json, label);
        seen.public++;
      } else {
        assert.equal(res.status, 403, label);
        assert.equal(res.json.code, "FORBIDDEN", label);
        assert.match(res.json.message, /scoped to (one|another) todo/, label);
        seen.forbidden++;
      }
    }
    assert.equal(await snapshot(), beforeState, "a refused call changed something");
    assert.equal(seen.forbidden + seen.notServed + seen.public, operations.length);
    assert.ok(seen.forbidden > 20, `only ${seen.forbidden} operations were tried on /dst/v1`);
  });

  test("on its own todo: each declared operation is allowed (never 403); the reads and writes a bridge needs answer 200", async () => {
    const inputs: Record<string, unknown> = {
      todo_addMessage: { content: "from the bridge", startProcessing: false },
      todo_updateStatus: { action: "complete" },
      todo_reportAiOutput: { todoId: ids.mine, reason: "other" },
    };
    const mustSucceed = new Set(["todo_get", "todo_getMessages", "todo_getWorkflow", ...Object.keys(inputs)]);
    const declared = operations.filter((op) => op.todoScope);
    for (const id of mustSucceed) assert.ok(declared.some((op) => op.id === id), `${id} should be open to a todo-scoped token`);
    for (const op of declared) {
      const res = await call(op, { todoId: ids.mine, messageId: ids.mineMessage, body: inputs[op.id] });
      const label = `${op.id}: ${res.text}`;
      assert.notEqual(res.status, 403, label);
      assert.ok(res.status < 500, label);
      if (mustSucceed.has(op.id)) assert.equal(res.status, 200, label);
    }
    const todo = await t.prisma.todo.findUniqueOrThrow({ where: { id: ids.mine } });
    assert.equal(todo.status, "DONE");
    assert.equal(await t.prisma.message.count({ where: { todoId: ids.mine, content: "from the bridge" } }), 1);
  });

  test("every declaration is usable: it accepts device tokens and names its todo in the path or the body", () => {
    for (const op of operations.filter((o) => o.todoScope)) {
      assert.ok(basesOf(op).includes("dst"), `${op.id} declares todoScope but is not served to device tokens`);
      const inPath = op.path.includes("{todoId}");
      const inBody = op.body && "shape" in op.body && "todoId" in (op.body.shape as object);
      assert.ok(inPath || inBody, `${op.id} declares todoScope but names no todoId`);
    }
  });
});
