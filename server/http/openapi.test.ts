import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { defineOperation, type AnyOperation } from "../operations/define.ts";
import { operations } from "../operations/index.ts";
import { ERROR_STATUS } from "./errors.ts";
import { buildOpenApi } from "./openapi.ts";

// The generated document is navigated freely in the assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const APP = "https://todo.example.org";
const doc = buildOpenApi(operations, APP) as Json;

// Written out here rather than imported, so a change to the mapping in the code is caught.
const BASE_OF = { apiKey: `${APP}/api/v1`, session: `${APP}/cookie/v1`, device: `${APP}/dst/v1` } as const;
const SCHEMES_OF = { apiKey: ["ApiKeyHeader", "ApiKeyBearer"], session: ["SessionCookie"], device: ["DeviceToken"] } as const;
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

function opDoc(op: AnyOperation, d: Json = doc): Json {
  const o = d.paths?.[op.path]?.[op.method.toLowerCase()];
  assert.ok(o, `${op.id}: no ${op.method} ${op.path} in the document`);
  return o;
}

/** Every value of `$ref` anywhere in `value`, with where it was found. */
function refs(value: unknown, at = "#", out: { ref: string; at: string }[] = []): { ref: string; at: string }[] {
  if (Array.isArray(value)) value.forEach((v, i) => refs(v, `${at}/${i}`, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.push({ ref: v, at });
      else refs(v, `${at}/${k}`, out);
    }
  }
  return out;
}

function resolvePointer(d: Json, ref: string): unknown {
  assert.ok(ref.startsWith("#/"), `non-local $ref ${ref}`);
  let node: unknown = d;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!node || typeof node !== "object" || !(key in (node as Json))) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  }
  return out;
}

function registeredId(schema: z.ZodType | undefined): string | undefined {
  return schema ? (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id : undefined;
}

describe("document", () => {
  test("is OpenAPI 3.1.0 with info and the three base servers", () => {
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(typeof doc.info.title, "string");
    assert.equal(typeof doc.info.version, "string");
    assert.deepEqual(
      doc.servers.map((s: Json) => s.url),
      [BASE_OF.apiKey, BASE_OF.session, BASE_OF.device],
    );
  });

  test("is plain JSON (survives a round trip unchanged)", () => {
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
  });

  test("the registry is not empty and its operationIds are unique", () => {
    assert.ok(operations.length >= 10);
    assert.equal(new Set(operations.map((o) => o.id)).size, operations.length);
  });
});

describe("operations", () => {
  test("every operation appears exactly once, under its path and method, with its operationId", () => {
    for (const op of operations) {
      const o = opDoc(op);
      assert.equal(o.operationId, op.id);
      assert.equal(o.summary, op.summary);
      assert.deepEqual(o.tags, [op.tag]);
    }
    const documented: string[] = [];
    for (const [p, item] of Object.entries(doc.paths as Json)) {
      for (const [method, o] of Object.entries(item as Json)) {
        assert.ok(METHODS.includes(method), `${p}: unexpected key ${method}`);
        documented.push(`${method.toUpperCase()} ${p} ${(o as Json).operationId}`);
      }
    }
    assert.deepEqual(documented.sort(), operations.map((op) => `${op.method} ${op.path} ${op.id}`).sort());
  });

  test("path parameters match the template's placeholders and are required", () => {
    for (const op of operations) {
      const o = opDoc(op);
      const placeholders = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const inPath = (o.parameters as Json[]).filter((p) => p.in === "path");
      assert.deepEqual(inPath.map((p) => p.name).sort(), placeholders, op.id);
      assert.ok(inPath.every((p) => p.required === true && p.schema && typeof p.schema === "object"), op.id);
    }
  });

  test("query parameters are the query schema's fields", () => {
    for (const op of operations) {
      const inQuery = (opDoc(op).parameters as Json[]).filter((p) => p.in === "query").map((p) => p.name).sort();
      assert.deepEqual(inQuery, op.query ? Object.keys(op.query.shape).sort() : [], op.id);
    }
  });

  test("a request body is documented exactly for operations that take one", () => {
    for (const op of operations) {
      const o = opDoc(op);
      if (op.body) {
        assert.ok(o.requestBody?.content?.["application/json"]?.schema, `${op.id}: no JSON request body`);
      } else {
        assert.equal(o.requestBody, undefined, op.id);
      }
    }
  });

  test(
    "a body that only repeats path ids is documented as optional",
    () => {
      const echoOnly = operations.filter((op) => {
        if (!op.body || !op.params || !(op.body instanceof z.ZodObject)) return false;
        const shape = op.body.shape as Record<string, z.ZodType>;
        const required = Object.keys(shape).filter((k) => !shape[k]!.safeParse(undefined).success);
        return required.length > 0 && required.every((k) => k in op.params!.shape);
      });
      assert.ok(echoOnly.length > 0, "expected some echo-only bodies in the registry");
      for (const op of echoOnly) assert.notEqual(opDoc(op).requestBody.required, true, op.id);
    },
  );
});

describe("schemas", () => {
  test("named schemas land in components.schemas and are referenced, not inlined", () => {
    const named = new Set<string>();
    for (const op of operations) {
      const o = opDoc(op);
      const resId = registeredId(op.response);
      if (resId) {
        named.add(resId);
        assert.deepEqual(o.responses["200"].content["application/json"].schema, { $ref: `#/components/schemas/${resId}` }, op.id);
      }
      const bodyId = registeredId(op.body);
      if (bodyId) {
        named.add(bodyId);
        assert.deepEqual(o.requestBody.content["application/json"].schema, { $ref: `#/components/schemas/${bodyId}` }, op.id);
      }
    }
    assert.ok(named.size >= 3, `only ${[...named].join(", ")}`);
    for (const id of named) assert.ok(doc.components.schemas[id], `components.schemas.${id} missing`);
    // The schemas the API-key operations use, by name.
    for (const id of ["ApiKey", "ApiKeyNameInput", "ApiKeyValidation", "Error"]) assert.ok(doc.components.schemas[id], id);
  });

  test("every $ref resolves, and no JSON-Schema-only leftovers ($defs, $schema) remain", () => {
    const all = refs(doc);
    assert.ok(all.length > operations.length);
    for (const { ref, at } of all) {
      assert.ok(ref.startsWith("#/components/"), `${at}: ${ref}`);
      assert.notEqual(resolvePointer(doc, ref), undefined, `${at}: ${ref} does not resolve`);
    }
    const keys = keysDeep(doc.paths);
    keysDeep(doc.components, keys);
    assert.ok(!keys.has("$defs"));
    assert.ok(!keys.has("$schema"));
  });

  test("the 200 schema describes the response (spot check: apiKey_get → ApiKey with a key field)", () => {
    const apiKey = doc.components.schemas.ApiKey as Json;
    assert.equal(apiKey.type, "object");
    for (const f of ["id", "name", "key", "isDefault", "createdAt", "lastUsedAt"]) assert.ok(apiKey.properties[f], f);
    assert.ok(!("keyHash" in apiKey.properties), "the hash must not be part of the public schema");
  });
});

describe("security", () => {
  test("the three credentials have security schemes", () => {
    const s = doc.components.securitySchemes as Json;
    assert.deepEqual(s.ApiKeyHeader, { ...s.ApiKeyHeader, type: "apiKey", in: "header", name: "x-api-key" });
    assert.deepEqual(s.ApiKeyBearer, { ...s.ApiKeyBearer, type: "http", scheme: "bearer" });
    assert.deepEqual(s.SessionCookie, { ...s.SessionCookie, type: "apiKey", in: "cookie", name: "authjs.session-token" });
    assert.deepEqual(s.DeviceToken, { ...s.DeviceToken, type: "http", scheme: "bearer" });
  });

  test("each operation's security lists exactly the schemes of its credentials (none → [])", () => {
    const defined = new Set(Object.keys(doc.components.securitySchemes));
    for (const op of operations) {
      const security = opDoc(op).security as Json[];
      const expected = op.auth === "none" ? [] : op.auth.flatMap((c) => SCHEMES_OF[c]).sort();
      const listed = security.flatMap((req) => Object.keys(req)).sort();
      assert.deepEqual(listed, expected, op.id);
      for (const req of security) {
        assert.equal(Object.keys(req).length, 1, `${op.id}: alternatives must be separate requirement objects`);
        for (const name of Object.keys(req)) assert.ok(defined.has(name), `${op.id}: undefined scheme ${name}`);
      }
    }
  });
});

describe("servers per operation", () => {
  test("are the bases whose credential the operation accepts (all three for auth none)", () => {
    for (const op of operations) {
      const expected = op.auth === "none" ? Object.values(BASE_OF) : op.auth.map((c) => BASE_OF[c]);
      assert.deepEqual(
        opDoc(op).servers.map((s: Json) => s.url).sort(),
        [...expected].sort(),
        op.id,
      );
    }
  });

  test("spot checks from the registry", () => {
    const byId = new Map(operations.map((o) => [o.id, o]));
    const urls = (id: string) => opDoc(byId.get(id)!).servers.map((s: Json) => s.url);
    assert.deepEqual(urls("apiKey_validate"), [BASE_OF.apiKey]);
    assert.deepEqual(urls("apiKey_create"), [BASE_OF.apiKey, BASE_OF.session]);
    assert.deepEqual(urls("project_get"), [BASE_OF.apiKey, BASE_OF.session, BASE_OF.device]);
    assert.deepEqual(urls("meta_openapi"), [BASE_OF.apiKey, BASE_OF.session, BASE_OF.device]);
    assert.deepEqual(opDoc(byId.get("meta_openapi")!).security, []);
  });
});

describe("error responses", () => {
  test("every non-200 response refers to a response whose schema is the Error schema", () => {
    for (const op of operations) {
      const responses = opDoc(op).responses as Json;
      assert.ok(responses["200"], op.id);
      assert.ok(responses.default, `${op.id}: no default response`);
      for (const [code, r] of Object.entries(responses)) {
        if (code === "200") continue;
        assert.match(r.$ref ?? "", /^#\/components\/responses\//, `${op.id} ${code}`);
        const target = resolvePointer(doc, r.$ref) as Json;
        assert.ok(target?.description, `${op.id} ${code}: ${r.$ref} has no description`);
        assert.deepEqual(target.content?.["application/json"]?.schema, { $ref: "#/components/schemas/Error" }, `${op.id} ${code}`);
      }
    }
  });

  test("the status codes follow the operation's shape", () => {
    for (const op of operations) {
      const codes = Object.keys(opDoc(op).responses).filter((c) => c !== "200" && c !== "default");
      const expected = ["400"];
      if (op.auth !== "none") expected.push("401");
      if (op.admin) expected.push("403");
      if (op.params) expected.push("404");
      if (op.body) expected.push("413");
      assert.deepEqual(codes.sort(), expected.sort(), op.id);
    }
  });

  test("the Error schema is {message, code, data?} with every error code", () => {
    const e = doc.components.schemas.Error as Json;
    assert.deepEqual([...e.required].sort(), ["code", "message"]);
    assert.deepEqual([...e.properties.code.enum].sort(), Object.keys(ERROR_STATUS).sort());
    assert.equal(e.properties.data.type, "object");
  });
});

// ---------- synthetic registries ----------

function syntheticOp(id: string, path: string, extra: Partial<AnyOperation>): AnyOperation {
  return defineOperation({
    id,
    method: "POST",
    path,
    summary: id,
    tag: "T",
    auth: ["apiKey"],
    response: z.null(),
    handler: async () => null,
    ...extra,
  } as AnyOperation);
}

describe("synthetic operations", () => {
  test("an admin-only operation documents 403; auth none documents no 401 and no security", () => {
    const d = buildOpenApi(
      [
        syntheticOp("admin_op", "/admin", { admin: true, auth: ["apiKey", "session"] }),
        syntheticOp("open_op", "/open", { auth: "none" }),
      ],
      APP,
    ) as Json;
    const admin = d.paths["/admin"].post;
    assert.deepEqual(Object.keys(admin.responses).sort(), ["200", "400", "401", "403", "default"]);
    assert.deepEqual(admin.servers.map((s: Json) => s.url), [BASE_OF.apiKey, BASE_OF.session]);
    const open = d.paths["/open"].post;
    assert.deepEqual(Object.keys(open.responses).sort(), ["200", "400", "default"]);
    assert.deepEqual(open.security, []);
  });
});

describe("component naming (synthetic operations)", () => {
  test("a schema whose input and output differ gets two components, each referenced where it applies", () => {
    const Defaults = z.object({ n: z.number().default(3) }).meta({ id: "UnitDefaults" });
    const d = buildOpenApi([syntheticOp("d1", "/d1", { body: Defaults, response: Defaults })], APP) as Json;
    const o = d.paths["/d1"].post;
    const resRef = o.responses["200"].content["application/json"].schema.$ref as string;
    const bodyRef = o.requestBody.content["application/json"].schema.$ref as string;
    assert.notEqual(resRef, bodyRef);
    const out = resolvePointer(d, resRef) as Json;
    const inp = resolvePointer(d, bodyRef) as Json;
    assert.deepEqual(out.required, ["n"], "the response always has n");
    assert.ok(!(inp.required ?? []).includes("n"), "the body may leave n out");
  });

  test(
    "a named schema that contains another named schema, used by two operations, is one component",
    () => {
      const Inner = z.object({ x: z.string() }).meta({ id: "UnitInner" });
      const Outer = z.object({ inner: Inner, n: z.number() }).meta({ id: "UnitOuter" });
      const d = buildOpenApi(
        [syntheticOp("o1", "/o1", { response: Outer }), syntheticOp("o2", "/o2", { response: Outer })],
        APP,
      ) as Json;
      for (const { ref, at } of refs(d)) assert.notEqual(resolvePointer(d, ref), undefined, `${at}: ${ref}`);
      assert.deepEqual(Object.keys(d.components.schemas).sort(), ["Error", "UnitInner", "UnitOuter"]);
      assert.deepEqual(d.paths["/o2"].post.responses["200"].content["application/json"].schema, { $ref: "#/components/schemas/UnitOuter" });
    },
  );
});
