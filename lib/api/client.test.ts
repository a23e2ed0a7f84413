import { afterEach, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import type { TProjectFull } from "../schemas/projects.ts";
import type { TApiKey } from "../schemas/api-keys.ts";
import { ApiClientError, call, operationPath } from "./client.ts";

type Sent = { url: string; method: string; body: string | undefined; contentType: string | null };
let sent: Sent[] = [];
let answer: () => Response = () => new Response("null", { status: 200 });
const realFetch = globalThis.fetch;

beforeEach(() => {
  sent = [];
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    sent.push({ url, method: init.method ?? "GET", body: init.body as string | undefined, contentType: new Headers(init.headers).get("content-type") });
    return answer();
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const json = (value: unknown, status = 200) => () => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

test("call builds the operation's path from its id, encoding parameters, and returns the answer typed", async () => {
  answer = json({ id: "p1", name: "Launch" });
  const project: TProjectFull = await call("project_get", { params: { projectId: "a/b c" } });
  assert.equal(project.name, "Launch");
  assert.deepEqual(sent, [{ url: "/cookie/v1/projects/a%2Fb%20c", method: "GET", body: undefined, contentType: null }]);
});

test("query values are encoded, undefined ones left out; bodies are sent as JSON with the operation's method", async () => {
  assert.equal(operationPath("todo_list", { params: { projectId: "p" }, query: { limit: 5, search: "a&b", cursor: undefined } }), "/projects/p/todos?limit=5&search=a%26b");
  answer = json({ name: "ci", key: "tsk_x" });
  const key: TApiKey = await call("apiKey_create", { body: { name: "ci" } });
  assert.equal(key.name, "ci");
  assert.deepEqual(sent, [{ url: "/cookie/v1/apikeys", method: "POST", body: '{"name":"ci"}', contentType: "application/json" }]);
  answer = () => new Response(null, { status: 200 });
  assert.equal(await call("apiKey_delete", { params: { name: "ci" }, body: { name: "ci" } }), null);
  assert.equal(sent[1]!.method, "DELETE");
});

test("an error answer becomes an ApiClientError with the spec's message, code and data", async () => {
  answer = json({ message: "Invalid input", code: "BAD_REQUEST", data: { issues: [{ path: ["name"], message: "Required" }] } }, 400);
  const err = await call("project_create", { body: { name: "" } }).then(() => null, (e: unknown) => e);
  assert.ok(err instanceof ApiClientError);
  assert.equal(err.message, "Invalid input");
  assert.equal(err.code, "BAD_REQUEST");
  assert.equal(err.status, 400);
  assert.deepEqual(err.data, { issues: [{ path: ["name"], message: "Required" }] });
});

test("an answer outside the spec's shape (a proxy's HTML page, an unknown code) is still an ApiClientError", async () => {
  answer = () => new Response("<html>Bad gateway</html>", { status: 502 });
  const err = await call("project_list").then(() => null, (e: unknown) => e);
  assert.ok(err instanceof ApiClientError);
  assert.equal(err.code, "UNKNOWN");
  assert.equal(err.status, 502);
  assert.equal(err.message, "Request failed (502)");
  answer = json({ message: "nope", code: "TEAPOT", data: [1] }, 418);
  const odd = await call("project_list").then(() => null, (e: unknown) => e);
  assert.ok(odd instanceof ApiClientError);
  assert.deepEqual([odd.code, odd.message, odd.data], ["UNKNOWN", "nope", undefined]);
});

test("a missing path parameter fails before any request is sent", async () => {
  // @ts-expect-error projectId is required by project_get's params schema
  await assert.rejects(call("project_get", { params: {} }), /missing path parameter projectId/);
  assert.equal(sent.length, 0);
});

// Compile-time checks (npx tsc --noEmit): ids, inputs and results come from the registry.
export function typeChecks(): void {
  // @ts-expect-error not an operation
  void call("project_nope");
  // @ts-expect-error project_get needs its params
  void call("project_get");
  // @ts-expect-error api-key-only operations are not served to the browser
  void call("apiKey_validate");
  // @ts-expect-error the body of project_create has no field `title`
  void call("project_create", { body: { title: "x" } });
  void call("project_list").then((list) => {
    // @ts-expect-error a project list is an array, not a project
    void list.name;
  });
}
