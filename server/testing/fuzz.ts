// Test support for the fuzz harness (server/http/fuzz.test.ts): fast-check arbitraries built from
// an operation's own zod schemas (through their JSON Schema, z.toJSONSchema, so every schema zod
// can describe is covered without knowing the operation), the hostile variants of a valid input,
// and a fingerprint of the whole database to show that a refused request changed nothing.
import fc from "fast-check";
import { z } from "zod";
import type { PrismaClient } from "../db/generated/client.ts";

type Json = Record<string, unknown>;
export type JsonSchema = Json;

/** Longest string a valid sample holds (longer bounds are probed by the hostile variants). */
const MAX_SAMPLE_STRING = 120;
const MAX_SAMPLE_ITEMS = 4;

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
}

/** Follows `$ref` into the root's `$defs`. */
export function resolve(node: JsonSchema, root: JsonSchema): JsonSchema {
  let n = node;
  for (let i = 0; i < 20 && typeof n.$ref === "string"; i++) {
    const name = n.$ref.replace(/^#\/\$defs\//, "");
    n = ((root.$defs as Record<string, JsonSchema> | undefined)?.[name] ?? {}) as JsonSchema;
  }
  return n;
}

function numberArb(n: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof n.minimum === "number" ? n.minimum : typeof n.exclusiveMinimum === "number" ? n.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : undefined;
  const max = typeof n.maximum === "number" ? n.maximum : typeof n.exclusiveMaximum === "number" ? n.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : undefined;
  if (min === undefined && max === undefined) {
    // Unbounded (often a query number coerced from text): small values, any integer, any double.
    return fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer(), integer ? fc.integer() : fc.double({ noNaN: true, noDefaultInfinity: true }));
  }
  const lo = min ?? Math.min(0, max! - 1000);
  const hi = max ?? lo + 1_000_000;
  const inner = integer
    ? fc.double({ min: lo, max: hi, noNaN: true }).map((v) => Math.min(hi, Math.max(lo, Math.round(v))))
    : fc.double({ min: lo, max: hi, noNaN: true });
  return fc.oneof({ arbitrary: fc.constantFrom(lo, hi), weight: 1 }, { arbitrary: inner, weight: 3 });
}

function stringArb(n: JsonSchema): fc.Arbitrary<string> {
  const minLength = typeof n.minLength === "number" ? n.minLength : 0;
  const maxLength = Math.max(minLength, Math.min(typeof n.maxLength === "number" ? n.maxLength : MAX_SAMPLE_STRING, MAX_SAMPLE_STRING));
  if (typeof n.pattern === "string") {
    const re = new RegExp(n.pattern);
    return fc.stringMatching(re).filter((s) => s.length >= minLength && s.length <= (typeof n.maxLength === "number" ? n.maxLength : Infinity));
  }
  if (n.format === "email") return fc.emailAddress().filter((s) => s.length <= (typeof n.maxLength === "number" ? n.maxLength : 320));
  // Plain ASCII, then any grapheme (emoji, CJK, combining marks, RTL marks, zero-width characters).
  return fc.oneof(
    fc.string({ minLength: Math.max(minLength, 1), maxLength }),
    fc.string({ unit: "grapheme", minLength, maxLength }),
  );
}

/** A fast-check arbitrary of values the JSON Schema describes. Refinements zod adds beyond it may still refuse some. */
export function arbitraryOf(node: JsonSchema, root: JsonSchema = node, depth = 0): fc.Arbitrary<unknown> {
  const n = resolve(node, root);
  if ("const" in n) return fc.constant(n.const);
  if (Array.isArray(n.enum)) return fc.constantFrom(...(n.enum as unknown[]));
  const alternatives = (n.anyOf ?? n.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((a) => arbitraryOf(a, root, depth)));
  if (Array.isArray(n.allOf) && n.allOf.length) return arbitraryOf(n.allOf[0] as JsonSchema, root, depth);
  if (Array.isArray(n.type)) return fc.oneof(...(n.type as string[]).map((t) => arbitraryOf({ ...n, type: t }, root, depth)));
  switch (n.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return numberArb(n, true);
    case "number":
      return numberArb(n, false);
    case "string":
      return stringArb(n);
    case "array": {
      const items = (n.prefixItems as JsonSchema[] | undefined) ? fc.tuple(...(n.prefixItems as JsonSchema[]).map((p) => arbitraryOf(p, root, depth + 1))) : undefined;
      if (items) return items;
      const minLength = typeof n.minItems === "number" ? n.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof n.maxItems === "number" ? n.maxItems : MAX_SAMPLE_ITEMS, MAX_SAMPLE_ITEMS));
      return fc.array(arbitraryOf((n.items as JsonSchema) ?? {}, root, depth + 1), { minLength, maxLength });
    }
    case "object": {
      const props = (n.properties ?? {}) as Record<string, JsonSchema>;
      const required = (n.required ?? []) as string[];
      const keys = Object.keys(props);
      if (keys.length === 0) {
        const extra = n.additionalProperties;
        if (extra === false) return fc.constant({});
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), depth > 3 ? fc.jsonValue({ maxDepth: 1 }) : arbitraryOf((extra as JsonSchema) ?? {}, root, depth + 1), { maxKeys: 3 });
      }
      const model = Object.fromEntries(keys.map((k) => [k, arbitraryOf(props[k]!, root, depth + 1)]));
      return fc.record(model, { requiredKeys: required.filter((k) => k in model) });
    }
    default:
      // Anything (z.unknown(), an unrepresentable transform's input): any JSON.
      return fc.jsonValue({ maxDepth: depth > 3 ? 1 : 3 });
  }
}

/** The object properties of a schema (after `$ref`), for mutations that pick a field. */
export function propertiesOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  const n = resolve(schema, schema);
  return { properties: (n.properties ?? {}) as Record<string, JsonSchema>, required: (n.required ?? []) as string[] };
}

// ───────────── hostile values ─────────────

export const NUL_TEXT = "x\u0000y";
export const LONE_SURROGATE = "x\ud800y";

/** Nesting built as text, so no serializer of ours recurses on it. */
export function deepJsonText(levels: number): string {
  return '{"n":'.repeat(levels - 1) + "{}" + "}".repeat(levels - 1);
}

/** A value of a JSON type other than the property's own (by its JSON Schema `type`). */
export function wrongTypeValues(prop: JsonSchema, root: JsonSchema): unknown[] {
  const n = resolve(prop, root);
  const types = new Set(Array.isArray(n.type) ? (n.type as string[]) : n.type ? [n.type as string] : []);
  const all: [string, unknown][] = [
    ["string", "not-the-type"],
    ["number", 12.5],
    ["integer", 7],
    ["boolean", true],
    ["null", null],
    ["array", [1, "two", { three: 3 }]],
    ["object", { unexpected: { nested: [1] } }],
  ];
  return all.filter(([t]) => !types.has(t) && !(t === "integer" && types.has("number"))).map(([, v]) => v);
}

/**
 * Body variants that must be refused (4xx) — or, if the schema happens to accept one, must still
 * never be a 5xx. Each is the raw JSON text sent, with a label for the report.
 */
export function hostileBodies(valid: unknown, schema: JsonSchema, rnd: () => number): { label: string; text: string }[] {
  const out: { label: string; text: string }[] = [];
  const pick = <T,>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const obj = valid && typeof valid === "object" && !Array.isArray(valid) ? (valid as Json) : {};
  const { properties, required } = propertiesOf(schema);
  const keys = Object.keys(properties);
  const withField = (key: string, valueText: string) => {
    const rest = JSON.stringify(Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key)));
    return rest === "{}" ? `{${JSON.stringify(key)}:${valueText}}` : `{${JSON.stringify(key)}:${valueText},${rest.slice(1)}`;
  };
  out.push({ label: "not an object", text: pick(["[]", '"text"', "42", "true", "[{}]"]) });
  out.push({ label: "malformed JSON", text: pick(['{"a":', "{'a':1}", "{,}", JSON.stringify(obj).slice(0, -1) || "{"]) });
  out.push({ label: "deep nesting", text: withField(keys.length ? pick(keys) : "extra", deepJsonText(5000)) });
  const proto = '{"__proto__":{"isAdmin":true,"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}';
  const rest = JSON.stringify(obj).slice(1);
  out.push({ label: "__proto__", text: rest === "}" ? `${proto}}` : `${proto},${rest}` });
  if (keys.length) {
    const key = pick(keys);
    const prop = resolve(properties[key]!, schema);
    out.push({ label: `${key}: wrong type`, text: withField(key, JSON.stringify(pick(wrongTypeValues(properties[key]!, schema)))) });
    out.push({ label: `${key}: NUL`, text: withField(key, JSON.stringify(NUL_TEXT)) });
    out.push({ label: `${key}: lone surrogate`, text: withField(key, JSON.stringify(LONE_SURROGATE)) });
    out.push({ label: `${key}: NUL inside JSON`, text: withField(key, JSON.stringify({ [NUL_TEXT]: [NUL_TEXT] })) });
    const max = typeof prop.maxLength === "number" ? prop.maxLength + 1 : 300_000;
    out.push({ label: `${key}: oversized string`, text: withField(key, JSON.stringify("é".repeat(Math.min(max, 400_000)))) });
    out.push({ label: `${key}: huge array`, text: withField(key, `[${new Array(100_000).fill("0").join(",")}]`) });
    const numberKeys = keys.filter((k) => ["integer", "number"].includes(resolve(properties[k]!, schema).type as string));
    if (numberKeys.length) {
      const nk = pick(numberKeys);
      out.push({ label: `${nk}: out of range`, text: withField(nk, pick(["8640000000000001", "253402300800000", "-1", "1e400", "-1e400", "0.5", "1e21"])) });
    }
  }
  if (required.length) {
    const key = pick(required);
    out.push({ label: `${key}: missing`, text: JSON.stringify(Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key))) });
  }
  return out;
}

/** Query values that a well-behaved schema refuses (or accepts without a 5xx). */
export const HOSTILE_QUERY_VALUES = [NUL_TEXT, "", " ", "-1", "0", "1.5", "abc", "8640000000000001", "1e400", "NaN", "Infinity", "99999999999999999999999", "%E0%A4%A", "'; DROP TABLE \"Todo\"; --", "é".repeat(5_000)];

/** Path segments (already percent-encoded) that no object has. */
export const HOSTILE_PATH_SEGMENTS = ["%00", "x%00y", "%E0%A4%A", "%ED%A0%80", "%2F", "a".repeat(5_000), "%F0%9F%92%A9", "__proto__", "constructor", "%20", "null", "-1"];

// ───────────── the database's state ─────────────

/** Columns that change on every authenticated call by design (the resolver's bookkeeping). */
const BOOKKEEPING = ["lastUsedAt"];

/** One hash per table of every row (bookkeeping columns left out): equal before and after ⇔ nothing changed. */
export async function databaseFingerprint(prisma: PrismaClient): Promise<Record<string, string>> {
  const tables = await prisma.$queryRawUnsafe<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY table_name`,
  );
  if (tables.length === 0) return {};
  const minus = BOOKKEEPING.map((c) => ` - '${c}'`).join("");
  const sql = tables
    .map((t) => `SELECT '${t.table_name}' AS t, md5(coalesce(string_agg(r::text, ',' ORDER BY r::text), '')) AS h FROM (SELECT to_jsonb(x)${minus} AS r FROM "${t.table_name}" x) s`)
    .join(" UNION ALL ");
  const rows = await prisma.$queryRawUnsafe<{ t: string; h: string }[]>(sql);
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}
