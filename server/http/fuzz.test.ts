import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { z } from "zod";
import type { Base } from "../auth/caller.ts";
import type { AnyOperation } from "./define.ts";
import { operations } from "../operations/index.ts";
import { suiteTestApp, type TestAppUser } from "../testing/app.ts";
import {
  HOSTILE_PATH_SEGMENTS,
  HOSTILE_QUERY_VALUES,
  arbitraryOf,
  databaseFingerprint,
  hostileBodies,
  jsonSchemaOf,
  propertiesOf,
} from "../testing/fuzz.ts";
import { ERROR_STATUS } from "./errors.ts";
import { guardInput } from "./input-guard.ts";
import { basesOf } from "./define.ts";

// Issue 9 part C: every operation of the registry, with inputs generated from its own zod
// schemas. Valid inputs never get a 5xx and every 2xx matches the response schema; hostile inputs
// get a 4xx in the error shape and change nothing. Nothing here names an operation: path ids come
// from what earlier responses returned (a field named like the parameter, or the `id` of an item
// of the collection path), so an operation added later is covered as it is registered.
//
// FUZZ_RUNS (default 6) valid and as many hostile requests per operation; FUZZ_SEED fixes the
// seed (CI=true fixes it too); FUZZ_DATABASE=postgres runs it on a fresh PostgreSQL database
// instead of the in-memory PGlite. The counts are printed at the end.

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 6));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.CI === "true" ? 9_0009 : Math.floor(Math.random() * 2 ** 31);

type Failure = { op: string; kind: string; request: string; status: number; detail: string };

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A seeded PRNG (mulberry32) for the choices made outside fast-check. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const paramNames = (op: AnyOperation) => [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

function isErrorShape(status: number, json: unknown): string | null {
  if (!json || typeof json !== "object" || Array.isArray(json)) return "not a JSON object";
  const body = json as Record<string, unknown>;
  const extra = Object.keys(body).filter((k) => !["message", "code", "data"].includes(k));
  if (extra.length) return `unexpected keys ${extra.join(",")}`;
  if (typeof body.message !== "string") return "message is not a string";
  if (typeof body.code !== "string" || !(body.code in ERROR_STATUS)) return `unknown code ${String(body.code)}`;
  if (ERROR_STATUS[body.code as keyof typeof ERROR_STATUS] !== status) return `code ${body.code} with status ${status}`;
  if ("data" in body && (typeof body.data !== "object" || body.data === null)) return "data is not an object";
  return null;
}

function passesGuard(value: unknown, where: "path" | "query" | "body"): boolean {
  try {
    guardInput(value, where);
    return true;
  } catch {
    return false;
  }
}

describe("fuzz: every operation of the registry", { timeout: 300_000 }, () => {
  let owner: TestAppUser;
  const app = suiteTestApp({
    database: process.env.FUZZ_DATABASE === "postgres" ? "postgres" : "pglite",
    setup: async () => {
      owner = await app.newUser();
    },
  });

  test(`valid inputs never 5xx and match the response; hostile ones are 4xx and change nothing (seed ${SEED}, ${RUNS} runs)`, async () => {
    const started = Date.now();
    const failures: Failure[] = [];
    const counts = new Map<string, { valid: number; hostile: number; ok2xx: number }>();
    /** Ids seen in responses, by the path parameter they fit, with the first path segment of the operation that returned them. */
    const pool = new Map<string, Map<string, string>>();
    const paths = new Set(operations.map((op) => op.path));
    const firstSegment = (path: string) => path.split("/")[1] ?? "";
    const remember = (param: string, value: string, source: AnyOperation) => (pool.get(param) ?? pool.set(param, new Map()).get(param)!).set(value, firstSegment(source.path));
    /** A known value for `param`, preferring those returned under the same first path segment (`/apikeys` names for `/apikeys/{name}`). */
    const known = (param: string, op: AnyOperation, rnd: () => number): string | undefined => {
      const all = [...(pool.get(param) ?? new Map<string, string>())];
      const near = all.filter(([, seg]) => seg === firstSegment(op.path));
      const from = near.length ? near : all;
      return from.length ? from[Math.floor(rnd() * from.length)]![0] : undefined;
    };

    const harvest = (op: AnyOperation, json: unknown) => {
      const names = new Set(operations.flatMap(paramNames));
      // `id` of what a collection path returns belongs to its item path (`/projects` → `/projects/{projectId}`).
      const itemParam = [...paths].map((p) => p.match(new RegExp(`^${op.path.replace(/[{}]/g, "\\$&")}/\\{([^}]+)\\}$`))?.[1]).find(Boolean);
      const stack: { v: unknown; top: boolean }[] = [{ v: json, top: true }];
      while (stack.length) {
        const { v, top } = stack.pop()!;
        if (!v || typeof v !== "object") continue;
        if (Array.isArray(v)) {
          for (const x of v) stack.push({ v: x, top });
          continue;
        }
        for (const [k, x] of Object.entries(v)) {
          if (typeof x === "string" && x && names.has(k)) remember(k, x, op);
          if (k === "id" && typeof x === "string" && top && itemParam) remember(itemParam, x, op);
          if (k === "items" && top) stack.push({ v: x, top: true });
          else stack.push({ v: x, top: false });
        }
      }
    };

    const baseFor = (op: AnyOperation): { base: Base; auth: { key?: string; cookie?: string } } | null => {
      if (op.auth === "none") return { base: "api", auth: {} };
      const bases = basesOf(op);
      if (bases.includes("cookie")) return { base: "cookie", auth: { cookie: owner.sessionCookie } };
      if (bases.includes("api")) return { base: "api", auth: { key: owner.apiKey } };
      return null;
    };

    // Creators before readers: fewer path parameters first; deletes last.
    const order = [...operations].sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE") || paramNames(a).length - paramNames(b).length);

    const prepare = (op: AnyOperation) => {
      const target = baseFor(op);
      const count = { valid: 0, hostile: 0, ok2xx: 0 };
      counts.set(op.id, count);
      if (!target) return null;
      const rnd = prng(SEED ^ hash(op.id));
      const paramSchema = op.params ? jsonSchemaOf(op.params) : undefined;
      const querySchema = op.query ? jsonSchemaOf(op.query) : undefined;
      const bodySchema = op.body ? jsonSchemaOf(op.body) : undefined;
      const bodyProps = bodySchema ? propertiesOf(bodySchema).properties : {};

      const sample = (i: number) => {
        const params: Record<string, string> = {};
        for (const name of paramNames(op)) {
          const real = known(name, op, rnd);
          const prop = paramSchema ? (propertiesOf(paramSchema).properties[name] ?? {}) : {};
          const generated = fc.sample(arbitraryOf(prop, paramSchema ?? {}), { seed: SEED ^ hash(`${op.id}:${name}:${i}`), numRuns: 1 })[0];
          params[name] = real !== undefined && rnd() < 0.85 ? real : String(generated ?? "x");
        }
        const query = querySchema ? (fc.sample(arbitraryOf(querySchema), { seed: SEED ^ hash(`${op.id}:q:${i}`), numRuns: 1 })[0] as Record<string, unknown>) : undefined;
        let body = bodySchema ? fc.sample(arbitraryOf(bodySchema), { seed: SEED ^ hash(`${op.id}:b:${i}`), numRuns: 1 })[0] : undefined;
        if (body && typeof body === "object" && !Array.isArray(body)) {
          // Every optional field is one more chance of a refusal: some samples keep only the required ones.
          const required = propertiesOf(bodySchema!).required;
          const b = rnd() < 0.35 ? Object.fromEntries(Object.entries(body).filter(([k]) => required.includes(k))) : { ...(body as Record<string, unknown>) };
          for (const key of Object.keys(bodyProps)) {
            // A body field named like a path parameter repeats it; one named like a known id gets a real one.
            if (key in params) b[key] = params[key];
            else if (pool.get(key)?.size && rnd() < 0.7) b[key] = known(key, op, rnd);
          }
          body = b;
        }
        const textQuery = Object.fromEntries(
          Object.entries(query ?? {})
            .filter(([, v]) => v !== undefined && v !== null)
            .map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
        );
        return { params, query: textQuery, body };
      };

      const pathOf = (params: Record<string, string>, raw: Record<string, string> = {}) =>
        op.path.replace(/\{([^}]+)\}/g, (_, name: string) => raw[name] ?? encodeURIComponent(params[name]!));

      const send = async (path: string, query: Record<string, string>, bodyText: string | undefined, method: string = op.method) =>
        app.call(method, path, { base: target.base, ...target.auth, query, rawBody: bodyText });

      const describeReq = (method: string, path: string, query: Record<string, string>, bodyText: string | undefined) =>
        `${method} /${target.base}/v1${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ""}${bodyText === undefined ? "" : ` ${bodyText.length > 300 ? `${bodyText.slice(0, 300)}… (${bodyText.length} chars)` : bodyText}`}`;

      const checkSuccess = (kind: string, req: string, status: number, json: unknown) => {
        count.ok2xx++;
        const parsed = op.response.safeParse(json);
        if (!parsed.success) failures.push({ op: op.id, kind, request: req, status, detail: `2xx does not match its response schema: ${z.prettifyError(parsed.error).slice(0, 300)}` });
        harvest(op, json);
      };

      // ── valid inputs ──
      const valid = async (from: number, to: number) => {
        for (let i = from; i < to; i++) {
          const s = sample(i);
          const path = pathOf(s.params);
          const bodyText = s.body === undefined ? undefined : JSON.stringify(s.body);
          const res = await send(path, s.query, bodyText);
          count.valid++;
          const req = describeReq(op.method, path, s.query, bodyText);
          if (res.status >= 500) failures.push({ op: op.id, kind: "valid", request: req, status: res.status, detail: res.text.slice(0, 300) });
          else if (res.status < 300) checkSuccess("valid", req, res.status, res.json);
          else if (process.env.FUZZ_VERBOSE) console.log(`refused valid-looking ${req.slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`);
          if (res.status >= 400 && res.status < 500 && isErrorShape(res.status, res.json)) failures.push({ op: op.id, kind: "valid", request: req, status: res.status, detail: `error shape: ${isErrorShape(res.status, res.json)}: ${res.text.slice(0, 200)}` });
        }

      };

      // ── hostile inputs ──
      const hostile = async () => {
        for (let i = 0; i < RUNS; i++) {
          const s = sample(RUNS + i);
          const where = (["path", "query", "body"] as const).filter((w) => (w === "path" ? paramNames(op).length : w === "query" ? op.query : op.body));
          const at = where.length ? where[i % where.length]! : "query";
          let path = pathOf(s.params);
          let query = s.query;
          let bodyText = s.body === undefined ? undefined : JSON.stringify(s.body);
          let label: string;
          let mustRefuse: boolean;
          if (at === "body") {
            const variants = hostileBodies(s.body, bodySchema!, rnd);
            const v = variants[(i + Math.floor(rnd() * variants.length)) % variants.length]!;
            label = `body ${v.label}`;
            bodyText = v.text;
            let parsed: unknown;
            let malformed = false;
            try {
              parsed = JSON.parse(v.text);
            } catch {
              malformed = true;
            }
            if (!malformed && parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
              for (const key of Object.keys(s.params)) if (key in bodyProps && (parsed as Record<string, unknown>)[key] === undefined) (parsed as Record<string, unknown>)[key] = s.params[key];
            }
            mustRefuse = malformed || !passesGuard(parsed, "body") || !op.body!.safeParse(parsed).success;
          } else if (at === "query") {
            const keys = querySchema ? Object.keys(propertiesOf(querySchema).properties) : ["unknown"];
            const key = keys[Math.floor(rnd() * keys.length)] ?? "unknown";
            const value = HOSTILE_QUERY_VALUES[(i + Math.floor(rnd() * HOSTILE_QUERY_VALUES.length)) % HOSTILE_QUERY_VALUES.length]!;
            label = `query ${key}=${JSON.stringify(value.slice(0, 40))}`;
            query = { ...query, [key]: value };
            mustRefuse = !passesGuard(query, "query") || (op.query ? !op.query.safeParse(query).success : false);
          } else {
            const names = paramNames(op);
            const name = names[Math.floor(rnd() * names.length)]!;
            const segment = HOSTILE_PATH_SEGMENTS[(i + Math.floor(rnd() * HOSTILE_PATH_SEGMENTS.length)) % HOSTILE_PATH_SEGMENTS.length]!;
            label = `path ${name}=${segment.slice(0, 40)}`;
            path = pathOf(s.params, { [name]: segment });
            let decoded: string | null;
            try {
              decoded = decodeURIComponent(segment);
            } catch {
              decoded = null;
            }
            // Undecodable is a 404 (no route matches); otherwise the guard and the schema decide.
            mustRefuse = decoded === null || !passesGuard({ [name]: decoded }, "path") || (op.params ? !op.params.safeParse({ ...s.params, [name]: decoded }).success : false);
          }
          const writes = op.method !== "GET";
          if (writes) await app.rt.runtime.agent.idle();
          const beforeState = writes ? await databaseFingerprint(app.rt.prisma) : undefined;
          const res = await send(path, query, bodyText);
          count.hostile++;
          const req = `${label}: ${describeReq(op.method, path, query, bodyText)}`;
          if (res.status >= 500) {
            failures.push({ op: op.id, kind: "hostile", request: req, status: res.status, detail: res.text.slice(0, 300) });
            continue;
          }
          if ((Object.prototype as Record<string, unknown>).polluted !== undefined || ({} as Record<string, unknown>).isAdmin !== undefined) {
            failures.push({ op: op.id, kind: "hostile", request: req, status: res.status, detail: "Object.prototype was polluted" });
            delete (Object.prototype as Record<string, unknown>).polluted;
            delete (Object.prototype as Record<string, unknown>).isAdmin;
          }
          if (res.status < 300) {
            if (mustRefuse) failures.push({ op: op.id, kind: "hostile", request: req, status: res.status, detail: `accepted input its schema refuses: ${res.text.slice(0, 200)}` });
            else checkSuccess("hostile", req, res.status, res.json);
            continue;
          }
          const shape = isErrorShape(res.status, res.json);
          if (shape) failures.push({ op: op.id, kind: "hostile", request: req, status: res.status, detail: `error shape: ${shape}: ${res.text.slice(0, 200)}` });
          if (writes) {
            await app.rt.runtime.agent.idle();
            const afterState = await databaseFingerprint(app.rt.prisma);
            const changed = Object.keys({ ...beforeState, ...afterState }).filter((t) => beforeState![t] !== afterState[t]);
            if (changed.length) failures.push({ op: op.id, kind: "hostile", request: req, status: res.status, detail: `refused, yet changed ${changed.join(", ")}` });
          }
        }

        // ── a method the path does not serve ──
        const s = sample(2 * RUNS);
        const path = pathOf(s.params);
        const method = ["PROPFIND", "FOO", "OPTIONS"][hash(op.id) % 3]!;
        const res = await send(path, {}, undefined, method);
        count.hostile++;
        const shape = res.status >= 400 && res.status < 500 ? isErrorShape(res.status, res.json) : `status ${res.status}`;
        if (shape) failures.push({ op: op.id, kind: "method", request: `${method} ${path}`, status: res.status, detail: shape });
      };
      return { valid, hostile };
    };

    // Valid requests in two passes over every operation (the second finds the ids the first
    // created), then the hostile ones; deletes come last in each phase and run their valid
    // requests at the very end, so they do not remove what the others work on.
    const runners = new Map(order.map((op) => [op.id, prepare(op)] as const));
    const half = Math.ceil(RUNS / 2);
    const keep = order.filter((op) => op.method !== "DELETE");
    const deletes = order.filter((op) => op.method === "DELETE");
    for (const op of keep) await runners.get(op.id)?.valid(0, half);
    for (const op of keep) await runners.get(op.id)?.valid(half, RUNS);
    for (const op of order) await runners.get(op.id)?.hostile();
    for (const op of deletes) await runners.get(op.id)?.valid(0, RUNS);

    const rows = [...counts].map(([id, c]) => `  ${id.padEnd(34)} ${String(c.valid).padStart(4)} valid ${String(c.hostile).padStart(4)} hostile ${String(c.ok2xx).padStart(4)} 2xx`);
    const total = [...counts.values()].reduce((n, c) => n + c.valid + c.hostile, 0);
    console.log(
      `fuzz: ${operations.length} operations, ${total} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${SEED}, FUZZ_RUNS=${RUNS})\n${rows.join("\n")}`,
    );
    for (const op of operations) assert.ok((counts.get(op.id)?.valid ?? 0) > 0, `${op.id} was never called`);
    assert.deepEqual(
      failures.map((f) => `${f.op} [${f.kind}] ${f.status} ${f.request}\n    → ${f.detail}`),
      [],
      `${failures.length} failures (seed ${SEED}; rerun with FUZZ_SEED=${SEED})`,
    );
  });
});

