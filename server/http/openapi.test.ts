import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { basesOf, defineOperation, isIdempotent, type AnyOperation } from "./define.ts";
import { operations } from "../operations/index.ts";
import { ERROR_STATUS } from "./errors.ts";
import { buildOpenApi, declaredStatuses } from "./openapi.ts";
import { ZCountryCode } from "../../lib/schemas/billing.ts";
import { MAX_EPOCH_MS } from "../../lib/schemas/common.ts";

// The generated document is navigated freely in the assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const doc = buildOpenApi(operations) as Json;

// Written out here rather than imported, so a change to the mapping in the code is caught.
// Relative: the document is served under each base, and its servers resolve against its origin.
const BASE_OF = { apiKey: "/api/v1", session: "/cookie/v1", device: "/dst/v1" } as const;
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
  test("is OpenAPI 3.1.0 with info and the three base servers, relative to the document's origin", () => {
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(typeof doc.info.title, "string");
    assert.equal(typeof doc.info.version, "string");
    assert.deepEqual(
      doc.servers.map((s: Json) => s.url),
      [BASE_OF.apiKey, BASE_OF.session, BASE_OF.device],
    );
    const urls = JSON.stringify([doc.servers, ...operations.map((op) => opDoc(op).servers)]);
    assert.doesNotMatch(urls, /localhost|https?:/, "no absolute server URL (APP_URL is not the client's origin)");
  });

  test("every tag an operation uses is declared at the top, with a description", () => {
    const declared = new Map((doc.tags as Json[]).map((t) => [t.name, t.description]));
    for (const op of operations) {
      assert.ok(declared.has(op.tag), `${op.id}: tag ${op.tag} not declared`);
      assert.ok(typeof declared.get(op.tag) === "string" && declared.get(op.tag).length > 10, `tag ${op.tag} has no description`);
    }
    assert.deepEqual([...declared.keys()].sort(), [...new Set(operations.map((o) => o.tag))].sort());
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
      assert.ok(op.description && op.description.length > 10, `${op.id}: declare a description on the operation`);
      assert.ok(o.description.startsWith(op.description), op.id);
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
      // A body that repeats path ids is documented as its own copy (see "ids a body repeats" below).
      if (bodyId && echoed(op).length === 0) {
        named.add(bodyId);
        assert.deepEqual(o.requestBody.content["application/json"].schema, { $ref: `#/components/schemas/${bodyId}` }, op.id);
      }
    }
    assert.ok(named.size >= 3, `only ${[...named].join(", ")}`);
    for (const id of named) assert.ok(doc.components.schemas[id], `components.schemas.${id} missing`);
    // The schemas the API-key operations use, by name.
    for (const id of ["ApiKey", "ApiKeyCreateInput", "ApiKeyValidation", "Error"]) assert.ok(doc.components.schemas[id], id);
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

  test("the status codes follow the operation's shape, plus the codes it declares", () => {
    for (const op of operations) {
      const codes = Object.keys(opDoc(op).responses).filter((c) => c !== "200" && c !== "default");
      const expected = new Set(["400", "429"]);
      if (op.auth !== "none") expected.add("401").add("403");
      if (op.admin) expected.add("403");
      // A cookie write from another origin (public writes such as cli_loginInit too).
      if (op.method !== "GET" && basesOf(op).includes("cookie")) expected.add("403");
      if (op.params) expected.add("404");
      if (op.body) expected.add("413");
      if (isIdempotent(op)) expected.add("409").add("422");
      for (const code of op.errors ?? []) expected.add(String(ERROR_STATUS[code]));
      assert.deepEqual(codes.sort(), [...expected].sort(), op.id);
      assert.deepEqual(declaredStatuses(op).map(String).sort(), [...expected].sort(), op.id);
    }
  });

  test("the statuses the issue found undeclared are declared", () => {
    const byId = new Map(operations.map((o) => [o.id, o]));
    const declared = (id: string) => Object.keys(opDoc(byId.get(id)!).responses);
    for (const id of ["apiKey_create", "todo_updateStatus", "todo_updateAndStart", "todo_updateMessage"]) assert.ok(declared(id).includes("409"), id);
    for (const id of ["user_setDefaultProject", "user_updateProjectAgentMapping", "todo_reportAiOutput", "note_list", "admin_log"]) assert.ok(declared(id).includes("404"), id);
    for (const op of operations) {
      assert.ok(declared(op.id).includes("429"), `${op.id}: rate limits apply everywhere`);
      if (op.auth !== "none") assert.ok(declared(op.id).includes("403"), `${op.id}: a todo-scoped token may be refused anywhere`);
    }
    const e429 = doc.components.responses.E429 as Json;
    assert.ok(e429.headers["Retry-After"], "429 documents Retry-After");
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
    idempotent: false,
    ...extra,
  } as AnyOperation);
}

describe("synthetic operations", () => {
  test("an admin-only operation documents 403; auth none documents no 401 and no security; 400 always (query values are checked)", () => {
    const d = buildOpenApi(
      [
        syntheticOp("admin_op", "/admin", { admin: true, auth: ["apiKey", "session"] }),
        syntheticOp("open_op", "/open", { auth: "none" }),
      ],
    ) as Json;
    const admin = d.paths["/admin"].post;
    assert.deepEqual(Object.keys(admin.responses).sort(), ["200", "400", "401", "403", "429", "default"]);
    assert.deepEqual(admin.servers.map((s: Json) => s.url), [BASE_OF.apiKey, BASE_OF.session]);
    const open = d.paths["/open"].post;
    // A POST is a write under /cookie/v1, where the same-origin check may refuse it.
    assert.deepEqual(Object.keys(open.responses).sort(), ["200", "400", "403", "429", "default"]);
    assert.deepEqual(open.security, []);
  });
});

describe("component naming (synthetic operations)", () => {
  test("a schema whose input and output differ gets two components, each referenced where it applies", () => {
    const Defaults = z.object({ n: z.number().default(3) }).meta({ id: "UnitDefaults" });
    const d = buildOpenApi([syntheticOp("d1", "/d1", { body: Defaults, response: Defaults })]) as Json;
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
      ) as Json;
      for (const { ref, at } of refs(d)) assert.notEqual(resolvePointer(d, ref), undefined, `${at}: ${ref}`);
      assert.deepEqual(Object.keys(d.components.schemas).sort(), ["Error", "UnitInner", "UnitOuter"]);
      assert.deepEqual(d.paths["/o2"].post.responses["200"].content["application/json"].schema, { $ref: "#/components/schemas/UnitOuter" });
    },
  );
});

// ---------- what the server requires is what the document requires ----------

/** The schema an operation's body is documented with, its $ref resolved. */
function bodyDoc(op: AnyOperation): Json {
  const schema = opDoc(op).requestBody.content["application/json"].schema as Json;
  return schema.$ref ? (resolvePointer(doc, schema.$ref) as Json) : schema;
}

function echoed(op: AnyOperation): string[] {
  if (!op.params || !(op.body instanceof z.ZodObject)) return [];
  return Object.keys(op.params.shape).filter((k) => k in (op.body as z.ZodObject).shape);
}

describe("request schemas", () => {
  test("a body the server refuses when empty says what it needs (required, anyOf or minProperties)", () => {
    let partial = 0;
    for (const op of operations) {
      if (!(op.body instanceof z.ZodObject)) continue;
      // What the pipeline parses for `{}`: path ids filled in (see fillFromPath in pipeline.ts).
      const filled = Object.fromEntries(echoed(op).map((k) => [k, "x"]));
      if (op.body.safeParse(filled).success) continue;
      const schema = bodyDoc(op);
      const required = ((schema.required as string[] | undefined) ?? []).filter((k) => !(k in filled));
      const says = required.length > 0 || (schema.minProperties ?? 0) > 0 || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf);
      assert.ok(says, `${op.id}: {} is refused, but the document allows it`);
      if (required.length === 0) partial++;
    }
    assert.ok(partial >= 6, `expected the partial-update bodies, found ${partial}`);
  });

  test("each anyOf alternative of a partial update is a body the server accepts on its own (spot checks)", () => {
    const body = (id: string) => operations.find((o) => o.id === id)!.body!;
    for (const [id, alone] of [
      ["todo_update", { isPublic: true }],
      ["todo_update", { scheduledAt: null }],
      ["project_update", { description: "" }],
      ["settings_updateUserSettings", { emailNotifications: false }],
      ["settings_updateProjectSettings", { defaultGroupSlug: null }],
      ["todo_updateWorkflow", { contextSummary: null }],
      ["todo_updateMessage", { scheduledAt: 1 }],
    ] as const) {
      assert.ok(body(id).safeParse(alone).success, `${id} ${JSON.stringify(alone)}`);
      assert.ok(!body(id).safeParse({}).success, `${id} {}`);
      const alternatives = (bodyDoc(operations.find((o) => o.id === id)!).anyOf as Json[]).map((a) => a.required[0]);
      assert.ok(alternatives.includes(Object.keys(alone)[0]), `${id}: ${Object.keys(alone)[0]} is an alternative`);
    }
  });

  test("ids a body repeats from the path are optional there, and the rule is written on the operation", () => {
    const ops = operations.filter((op) => echoed(op).length > 0);
    assert.ok(ops.some((o) => o.id === "project_delete") && ops.some((o) => o.id === "apiKey_delete"));
    for (const op of ops) {
      const schema = bodyDoc(op);
      for (const key of echoed(op)) {
        assert.ok(!((schema.required as string[] | undefined) ?? []).includes(key), `${op.id}: body.${key} is filled from the path`);
        assert.match(schema.properties[key].description, /must equal the path/, `${op.id}: body.${key}`);
      }
      assert.match(opDoc(op).description, /a different value is 400/, op.id);
      assert.notEqual(opDoc(op).requestBody.required, true, op.id);
    }
  });

  test("trimmed names and contents must contain a non-space; trimmed patterns allow the surrounding space", () => {
    const create = bodyDoc(operations.find((o) => o.id === "project_create")!);
    assert.equal(create.properties.name.pattern, "\\S");
    const content = bodyDoc(operations.find((o) => o.id === "todo_addMessage")!).properties.content;
    assert.equal(content.pattern, "\\S");
    for (const [value, ok] of [["   ", false], ["\t\n", false], [" a ", true], ["Launch", true]] as const)
      assert.equal(new RegExp(create.properties.name.pattern, "u").test(value), ok, JSON.stringify(value));
    // ZApiKeyName is trimmed, then matched: " ci " is accepted, so the document must allow it.
    const keyName = bodyDoc(operations.find((o) => o.id === "apiKey_create")!).properties.name;
    const re = new RegExp(keyName.pattern, "u");
    for (const [value, ok] of [[" ci ", true], ["ci-1", true], ["-ci", false], ["   ", false]] as const) assert.equal(re.test(value), ok, JSON.stringify(value));
  });

  test("`default` is a reserved API key name in the schema", () => {
    const name = bodyDoc(operations.find((o) => o.id === "apiKey_create")!).properties.name;
    const reserved = new RegExp(name.not.pattern, "u");
    for (const value of ["default", "DEFAULT", " Default "]) assert.ok(reserved.test(value), value);
    for (const value of ["default-2", "my default", "defaults"]) assert.ok(!reserved.test(value), value);
    assert.match(name.description, /reserved/);
  });

  test("billing country is the enum of the codes the server accepts", () => {
    const country = doc.components.schemas.BillingInfoInput.properties.address.properties.country as Json;
    assert.ok(country.enum.length > 240, "every assigned code");
    for (const code of country.enum) assert.ok(ZCountryCode.safeParse(code).success, code);
    for (const code of ["UK", "ZZ", "de", "EU"]) assert.ok(!country.enum.includes(code) && !ZCountryCode.safeParse(code).success, code);
  });

  test("subscribe operations declare the X-Socket-Id header; others do not", () => {
    for (const op of operations) {
      const header = (opDoc(op).parameters as Json[]).find((p) => p.in === "header" && p.name.toLowerCase() === "x-socket-id");
      if (op.id.endsWith("_subscribe")) {
        assert.ok(header, op.id);
        assert.equal(header.schema.type, "string");
      } else assert.equal(header, undefined, op.id);
    }
    assert.equal(operations.filter((o) => o.id.endsWith("_subscribe")).length, 3);
  });

  test("idempotent operations declare Idempotency-Key, Idempotent-Replayed, 409 and 422; others do not", () => {
    const idempotent = operations.filter((o) => isIdempotent(o)).map((o) => o.id);
    // POSTs that create are idempotent by default; a shown-once secret and subscriptions opt out.
    for (const id of ["project_create", "project_createTodo", "todo_addMessage"]) assert.ok(idempotent.includes(id), id);
    for (const id of ["apiKey_create", "project_subscribe", "todo_subscribe", "project_get", "project_update"]) assert.ok(!idempotent.includes(id), id);
    for (const op of operations) {
      const d = opDoc(op);
      const header = (d.parameters as Json[]).find((p) => p.in === "header" && p.name === "Idempotency-Key");
      if (isIdempotent(op)) {
        assert.deepEqual(header?.schema, { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" }, op.id);
        assert.ok(d.responses["200"].headers["Idempotent-Replayed"], op.id);
        assert.ok(d.responses["409"] && d.responses["422"], op.id);
      } else {
        assert.equal(header, undefined, op.id);
        assert.equal(d.responses["200"].headers["Idempotent-Replayed"], undefined, op.id);
      }
    }
  });

  test("every response declares the rate-limit headers the pipeline sends", () => {
    for (const op of operations) {
      const d = opDoc(op);
      for (const [code, response] of Object.entries(d.responses as Record<string, Json>)) {
        const resolved = response.$ref ? doc.components.responses[String(response.$ref).split("/").pop()!] : response;
        assert.ok(resolved.headers?.RateLimit && resolved.headers?.["RateLimit-Policy"], `${op.id} ${code}`);
      }
    }
    assert.match(doc.components.headers.RateLimit.description, /r=<remaining>/);
  });
});

describe("response schemas", () => {
  test("Message.usage is a typed object (or null), not anything", () => {
    const usage = doc.components.schemas.Message.properties.usage as Json;
    const ref = (usage.anyOf as Json[]).find((s) => s.$ref)?.$ref as string;
    assert.ok(ref, JSON.stringify(usage));
    const typed = resolvePointer(doc, ref) as Json;
    assert.equal(typed.type, "object");
    for (const [field, type] of Object.entries({ provider: "string", model: "string", tokensIn: "number", tokensOut: "number", costCents: "number", durationMs: "number", interrupted: "boolean", error: "string" }))
      assert.equal(typed.properties[field]?.type, type, field);
  });

  test("no schema anywhere is an empty 'anything' except free-form JSON the API stores as given", () => {
    const empties: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}/${i}`));
      else if (value && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) {
          if ((k === "schema" || at.endsWith("/properties")) && v && typeof v === "object" && Object.keys(v).length === 0) empties.push(`${at}/${k}`);
          walk(v, `${at}/${k}`);
        }
      }
    };
    walk(doc.components.schemas, "#/components/schemas");
    // Block.content is the block's own JSON (checklist items carry {text}; other types differ).
    assert.deepEqual(empties.filter((e) => !/\/(Public)?Block\/properties\/content$/.test(e)), []);
  });
});

describe("instants a client sends", () => {
  test("every `…At` number of a request body is bounded to 1970 … 9999 (ZEpochMs), so it can never reach the database out of range", () => {
    const found: string[] = [];
    const walk = (schema: unknown, at: string, seen: Set<string>): void => {
      if (!schema || typeof schema !== "object") return;
      const node = schema as Json;
      if (typeof node.$ref === "string") {
        if (seen.has(node.$ref)) return;
        return walk(resolvePointer(doc, node.$ref), at, new Set([...seen, node.$ref]));
      }
      for (const key of ["anyOf", "oneOf", "allOf"]) for (const sub of (node[key] ?? []) as unknown[]) walk(sub, at, seen);
      if (node.items) walk(node.items, `${at}[]`, seen);
      for (const [name, prop] of Object.entries((node.properties ?? {}) as Json)) {
        const path = `${at}.${name}`;
        if (/At$/.test(name)) {
          const numbers = [prop, ...((prop.anyOf ?? []) as Json[])].map((p) => (p.$ref ? (resolvePointer(doc, p.$ref) as Json) : p)).filter((p) => p.type === "integer" || p.type === "number");
          for (const n of numbers) {
            found.push(path);
            assert.equal(n.minimum, 0, `${path}: no lower bound`);
            assert.equal(n.maximum, MAX_EPOCH_MS, `${path}: no upper bound`);
          }
        }
        walk(prop, path, seen);
      }
    };
    for (const op of operations) {
      const body = opDoc(op).requestBody?.content?.["application/json"]?.schema;
      if (body) walk(body, `${op.id} body`, new Set());
    }
    assert.ok(found.some((f) => f.startsWith("admin_saveCourse body.startsAt")), found.join(", "));
    assert.ok(found.some((f) => f.startsWith("project_createTodo body.scheduledAt")), found.join(", "));
  });
});
