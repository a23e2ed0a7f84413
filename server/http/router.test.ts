import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { defineOperation, type AnyOperation, type HttpMethod } from "./define.ts";
import { Router, type RouteMatch } from "./router.ts";

function op(id: string, method: HttpMethod, path: string): AnyOperation {
  return defineOperation({
    id,
    method,
    path,
    summary: id,
    tag: "Test",
    auth: ["apiKey"],
    response: z.null(),
    handler: async () => null,
  });
}

function found(m: RouteMatch): { id: string; params: Record<string, string> } {
  assert.equal(m.kind, "found", `expected a match, got ${JSON.stringify(m)}`);
  if (m.kind !== "found") throw new Error("unreachable");
  return { id: m.op.id, params: m.params };
}

function allowOf(m: RouteMatch): string[] {
  assert.equal(m.kind, "method", `expected 405, got ${JSON.stringify(m.kind === "found" ? { kind: m.kind, id: m.op.id } : m)}`);
  if (m.kind !== "method") throw new Error("unreachable");
  return [...m.allow].sort();
}

const getDefault = op("apiKey_getDefault", "GET", "/apikeys/default");
const getByName = op("apiKey_get", "GET", "/apikeys/{name}");
const deleteByName = op("apiKey_delete", "DELETE", "/apikeys/{name}");
const setDefault = op("apiKey_setDefault", "PUT", "/apikeys/{name}/default");
const list = op("apiKey_list", "GET", "/apikeys");
const create = op("apiKey_create", "POST", "/apikeys");

describe("static segments beat parameters", () => {
  for (const [label, ops] of [
    ["static registered first", [getDefault, getByName]],
    ["parameter registered first", [getByName, getDefault]],
  ] as const) {
    test(`/apikeys/default vs /apikeys/{name} (${label})`, () => {
      const router = new Router(ops);
      assert.deepEqual(found(router.match("GET", "/apikeys/default")), { id: "apiKey_getDefault", params: {} });
      assert.deepEqual(found(router.match("GET", "/apikeys/work")), { id: "apiKey_get", params: { name: "work" } });
    });
  }

  test("the first differing position decides, whatever the registration order", () => {
    const a = op("a", "GET", "/x/{p}/c");
    const b = op("b", "GET", "/x/b/{q}");
    for (const ops of [
      [a, b],
      [b, a],
    ]) {
      const router = new Router(ops);
      assert.deepEqual(found(router.match("GET", "/x/b/c")), { id: "b", params: { q: "c" } });
      assert.deepEqual(found(router.match("GET", "/x/z/c")), { id: "a", params: { p: "z" } });
      assert.deepEqual(found(router.match("GET", "/x/b/zz")), { id: "b", params: { q: "zz" } });
    }
  });

  test("a static route of another method does not hide the parameter route of this method", () => {
    const router = new Router([getDefault, getByName, deleteByName]);
    assert.deepEqual(found(router.match("DELETE", "/apikeys/default")), { id: "apiKey_delete", params: { name: "default" } });
  });

  test("segment counts must agree; empty segments and a trailing slash are ignored", () => {
    const router = new Router([list, getByName, setDefault]);
    assert.equal(found(router.match("GET", "/apikeys")).id, "apiKey_list");
    assert.equal(found(router.match("GET", "/apikeys/")).id, "apiKey_list");
    assert.equal(found(router.match("GET", "//apikeys//k1/")).id, "apiKey_get");
    assert.deepEqual(router.match("GET", "/apikeys/k1/default/extra"), { kind: "none" });
    assert.deepEqual(router.match("GET", "/"), { kind: "none" });
    assert.deepEqual(router.match("GET", "/other"), { kind: "none" });
  });

  test("static segments compare exactly (case-sensitive)", () => {
    const router = new Router([list]);
    assert.deepEqual(router.match("GET", "/APIKEYS"), { kind: "none" });
  });
});

describe("parameters", () => {
  const router = new Router([getDefault, getByName, setDefault]);

  test("are percent-decoded", () => {
    assert.deepEqual(found(router.match("GET", "/apikeys/my%20key")).params, { name: "my key" });
    assert.deepEqual(found(router.match("GET", "/apikeys/caf%C3%A9")).params, { name: "café" });
    // An encoded slash stays inside the one segment.
    assert.deepEqual(found(router.match("GET", "/apikeys/a%2Fb")).params, { name: "a/b" });
    assert.deepEqual(found(router.match("PUT", "/apikeys/x%20y/default")).params, { name: "x y" });
  });

  test("an undecodable parameter is no match", () => {
    assert.deepEqual(router.match("GET", "/apikeys/%E0%A4%A"), { kind: "none" });
    assert.deepEqual(router.match("GET", "/apikeys/%ZZ"), { kind: "none" });
    assert.deepEqual(router.match("PUT", "/apikeys/%E0%A4%A/default"), { kind: "none" });
  });

  test("several parameters are all captured", () => {
    const r = new Router([op("m", "PATCH", "/todos/{todoId}/messages/{messageId}")]);
    assert.deepEqual(found(r.match("PATCH", "/todos/t1/messages/m%202")).params, { todoId: "t1", messageId: "m 2" });
  });
});

describe("405 Method Not Allowed", () => {
  const router = new Router([list, create, getDefault, getByName, deleteByName, setDefault]);

  test("allow lists every method of every template matching the path", () => {
    // /apikeys/default matches both /apikeys/default (GET) and /apikeys/{name} (GET, DELETE).
    assert.deepEqual(allowOf(router.match("PATCH", "/apikeys/default")), ["DELETE", "GET"]);
    assert.deepEqual(allowOf(router.match("POST", "/apikeys/work")), ["DELETE", "GET"]);
    assert.deepEqual(allowOf(router.match("DELETE", "/apikeys")), ["GET", "POST"]);
    assert.deepEqual(allowOf(router.match("GET", "/apikeys/work/default")), ["PUT"]);
  });

  test("methods are not repeated in allow", () => {
    const m = router.match("PUT", "/apikeys/default");
    assert.equal(m.kind, "method");
    if (m.kind === "method") assert.equal(new Set(m.allow).size, m.allow.length);
  });

  test("an unknown path is none, not 405", () => {
    assert.deepEqual(router.match("PATCH", "/nothing/here"), { kind: "none" });
  });
});

describe("HEAD", () => {
  const router = new Router([list, create, getByName]);

  test("falls back to the GET operation of the path", () => {
    assert.deepEqual(found(router.match("HEAD", "/apikeys/k%201")), { id: "apiKey_get", params: { name: "k 1" } });
    assert.equal(found(router.match("HEAD", "/apikeys")).id, "apiKey_list");
  });

  test("without a GET operation it is 405 listing the others, or none", () => {
    const r = new Router([create]);
    assert.deepEqual(allowOf(r.match("HEAD", "/apikeys")), ["POST"]);
    assert.deepEqual(r.match("HEAD", "/unknown"), { kind: "none" });
  });
});

describe("registration", () => {
  test("two operations with the same method and path throw, naming the operation", () => {
    assert.throws(() => new Router([getByName, op("apiKey_get2", "GET", "/apikeys/{name}")]), /GET \/apikeys\/\{\}.*apiKey_get2/);
  });

  test("templates differing only in parameter names are the same route", () => {
    assert.throws(() => new Router([getByName, op("other", "GET", "/apikeys/{id}")]), /Two operations claim GET \/apikeys\/\{\}/);
  });

  test("the same path with different methods, and different paths, are fine", () => {
    assert.doesNotThrow(() => new Router([getByName, deleteByName, getDefault, setDefault]));
  });

  test("an empty router matches nothing", () => {
    assert.deepEqual(new Router([]).match("GET", "/apikeys"), { kind: "none" });
  });
});
