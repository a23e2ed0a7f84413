import { z } from "zod";
import { BASE_CREDENTIAL, BASE_PATH, type Base, type Credential } from "../auth/caller.ts";
import { basesOf, isIdempotent, type AnyOperation } from "./define.ts";
import { ERROR_STATUS } from "./errors.ts";

type Json = Record<string, unknown>;

/** Every response of the pipeline carries the rate-limit headers (server/http/rate-limit.ts). */
const RATE_LIMIT_HEADERS = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
} as const;

const SECURITY: Record<Credential, Json[]> = {
  apiKey: [{ ApiKeyHeader: [] }, { ApiKeyBearer: [] }],
  session: [{ SessionCookie: [] }],
  device: [{ DeviceToken: [] }],
};

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid path, query, header or body (`BAD_REQUEST`, `data.issues` lists each problem)",
  401: "Missing, invalid or expired credential (`UNAUTHORIZED`)",
  402: "Payment required (`PAYMENT_REQUIRED`)",
  403: "Authenticated, but not allowed (`FORBIDDEN`): read-only or non-owner access, a token scoped to another todo, or a cookie write from another origin",
  404: "Not found, or not visible to the caller (`NOT_FOUND`)",
  409: "The current state does not allow it (`CONFLICT`); on operations that take an `Idempotency-Key`, also: a request with this key is still in progress",
  413: "Body over 1 MiB (`PAYLOAD_TOO_LARGE`)",
  422: "Understood, but cannot be processed (`UNPROCESSABLE_CONTENT`); on operations that take an `Idempotency-Key`, also: the key was used with a different request",
  429: "Too many requests (`TOO_MANY_REQUESTS`); `Retry-After` says when to try again",
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  User: "The caller's profile, default project and per-project agent choice",
  "API keys": "Create, list, validate and revoke the caller's API keys (not served to device tokens)",
  Projects: "Projects, their sharing, groups, cards, brand page and real-time subscription",
  Search: "Full-text search over messages, and unified search with a related (semantic) tail over todos and memory notes (docs/api.md \"Search\")",
  "Memory notes": "Short curated notes, personal or a project's, that the user and the agent keep (not served to device tokens)",
  Todos: "Todos, their messages, blocks, lifecycle and agent turns",
  Settings: "User settings, billing information and project settings",
  Teams: "A team: owner, admins and members, invites by email, a shared project and auto-join by company domain",
  Devices: "Edges, bridge-backed devices (online while their Socket.IO connection is open), workspace paths and the hosted cloud device",
  "Command line": "Device-code login (RFC 8628), device enrollment, dst_ token exchange and todo-scoped (mayfly) tokens",
  Billing: "Credit balance and ledger, cards, invoices, plans and subscriptions through Stripe, usage windows and extra spend (not served to device tokens)",
  Usage: "Agent usage (turns, tokens, cost) in a date range",
  "Course administration": "Administrators only: courses, eligible mailboxes, coupons, perks, resumable bulk mail, the abuse audit, followers, ideas moderation and the admin log",
  Courses: "Public course pages: the course, signing up, the ideas wall and coupon redemption",
  Meta: "This document",
};

/**
 * The statuses an operation declares besides 200: derived from its shape, plus `op.errors`.
 * 400 always (every path and query value of any request is checked for NUL and lone surrogates,
 * input-guard.ts, even where the operation reads none), 401 and 403 when it needs a credential (a
 * todo-scoped token may be refused anywhere), 403 also for administrator-only operations and
 * cookie-base writes (same-origin check), 404 when its path names something, 413 when it takes a
 * body, 429 always (rate limits), 409 and 422 when it takes an `Idempotency-Key` (in progress,
 * used with another request). 405 belongs to the router (a path with another method), not to
 * an operation; 500 is the `default` response.
 */
export function declaredStatuses(op: AnyOperation): number[] {
  const codes = new Set<number>([400, 429]);
  if (op.auth !== "none") codes.add(401).add(403);
  if (op.admin || (STATE_CHANGING.has(op.method) && basesOf(op).includes("cookie"))) codes.add(403);
  if (op.params) codes.add(404);
  if (op.body) codes.add(413);
  if (isIdempotent(op)) codes.add(409).add(422);
  for (const code of op.errors ?? []) codes.add(ERROR_STATUS[code]);
  return [...codes].sort((a, b) => a - b);
}

/** Did zod's `.trim()` make this check? (It is an overwrite whose function trims.) */
function isTrim(check: unknown): boolean {
  const def = (check as { _zod?: { def?: { check?: string; tx?: (v: string) => unknown } } })._zod?.def;
  if (def?.check !== "overwrite" || typeof def.tx !== "function") return false;
  try {
    return def.tx(" a B ") === "a B" && def.tx("\tA b\n") === "A b";
  } catch {
    return false;
  }
}

/**
 * Input strings are trimmed before their checks; JSON Schema checks the raw value. So a trimmed
 * string with a minimum length must contain a non-space (`\S`), and an anchored pattern allows
 * the whitespace that trimming removes.
 */
function describeTrim(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const def = (ctx.zodSchema as { _zod: { def: { type: string; checks?: unknown[] } } })._zod.def;
  if (def.type !== "string" || !(def.checks ?? []).some(isTrim)) return;
  const json = ctx.jsonSchema;
  const pattern = typeof json.pattern === "string" ? json.pattern : undefined;
  if (pattern?.startsWith("^") && pattern.endsWith("$")) json.pattern = `^\\s*(?:${pattern.slice(1, -1)})\\s*$`;
  else if (!pattern && typeof json.minLength === "number" && json.minLength >= 1) json.pattern = "\\S";
  const note = "Leading and trailing whitespace is trimmed before the checks; a blank value is refused.";
  json.description = typeof json.description === "string" ? `${json.description.replace(/\.?$/, ".")} ${note}` : note;
}

/** Converts one zod schema, moving named schemas (`.meta({ id })`) into components. */
function toSchema(schema: z.ZodType, io: "input" | "output", components: Record<string, Json>): Json {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
    ...(io === "input" ? { override: (ctx: { zodSchema: unknown; jsonSchema: unknown }) => describeTrim(ctx as { zodSchema: unknown; jsonSchema: Json }) } : {}),
  }) as Json;
  const defs = (json.$defs ?? {}) as Record<string, Json>;
  delete json.$defs;
  delete json.$schema;
  // Names are settled first (a name clash with a different schema gets an Input/Output suffix),
  // then refs are rewritten, and a definition is compared with the stored one in rewritten form.
  const rename = new Map<string, string>();
  const fix = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fix);
    if (value && typeof value === "object") {
      const out: Json = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? `#/components/schemas/${rename.get(v.slice(8)) ?? v.slice(8)}` : fix(v);
      }
      return out;
    }
    return value;
  };
  const ids = Object.keys(defs);
  for (const id of ids) rename.set(id, id);
  for (const id of ids) {
    const existing = components[id];
    if (existing && JSON.stringify(existing) !== JSON.stringify(fix(defs[id]))) rename.set(id, `${id}${io === "input" ? "Input" : "Output"}`);
  }
  for (const id of ids) components[rename.get(id)!] = fix(defs[id]) as Json;
  return fix(json) as Json;
}

function parameters(schema: z.ZodObject | undefined, where: "path" | "query", components: Record<string, Json>): Json[] {
  if (!schema) return [];
  const json = toSchema(schema, "input", components);
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    ...(s.description ? { description: s.description } : {}),
    schema: s,
  }));
}

/** Body fields that repeat a path parameter: the pipeline fills them from the path (see pipeline.ts). */
function echoedKeys(op: AnyOperation): string[] {
  if (!op.params || !(op.body instanceof z.ZodObject)) return [];
  const shape = op.body.shape as Record<string, unknown>;
  return Object.keys(op.params.shape).filter((k) => k in shape);
}

/**
 * The request body's schema. Ids that repeat the path are not required (a copy of the named
 * schema without them in `required`, when they were) and say that they must equal the path's.
 */
function bodySchema(op: AnyOperation, components: Record<string, Json>): Json {
  const schema = toSchema(op.body!, "input", components);
  const echoed = echoedKeys(op);
  if (echoed.length === 0) return schema;
  const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
  const target = ref ? components[ref.slice("#/components/schemas/".length)]! : schema;
  const copy = JSON.parse(JSON.stringify(target)) as Json;
  const props = (copy.properties ?? {}) as Record<string, Json>;
  for (const key of echoed) {
    const note = `May be left out: it is taken from the path. If given, it must equal the path's \`${key}\` (400 otherwise).`;
    if (props[key]) props[key] = { ...props[key], description: props[key].description ? `${String(props[key].description).replace(/\.?$/, ".")} ${note}` : note };
  }
  const required = ((copy.required as string[] | undefined) ?? []).filter((k) => !echoed.includes(k));
  if (required.length) copy.required = required;
  else delete copy.required;
  return copy;
}

/** A body whose required fields all repeat path parameters may be left out (see pipeline.ts). */
function bodyIsOptional(op: AnyOperation): boolean {
  if (!op.body) return true;
  if (!(op.body instanceof z.ZodObject)) return op.body.safeParse(undefined).success;
  const shape = op.body.shape as Record<string, z.ZodType>;
  const pathParams = new Set(op.params ? Object.keys(op.params.shape) : []);
  return Object.entries(shape).every(([k, s]) => pathParams.has(k) || s.safeParse(undefined).success);
}

/** Idempotent operations take `Idempotency-Key` (server/http/idempotency.ts). */
function idempotencyParameter(op: AnyOperation): Json[] {
  if (!isIdempotent(op)) return [];
  return [
    {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "Makes a retry safe: the first answer (not a 5xx) is stored for 24 h per credential and replayed byte for byte with `Idempotent-Replayed: true`. The same key with a different method, path or body is 422; while the first request runs it is 409.",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
    },
  ];
}

/** Subscribe operations take the Socket.IO connection id in a header (or `socketId` in the body). */
function headerParameters(op: AnyOperation): Json[] {
  if (!op.path.endsWith("/subscribe")) return [];
  return [
    {
      name: "X-Socket-Id",
      in: "header",
      required: false,
      description: "The id of one of the caller's own connected Socket.IO connections (or pass `socketId` in the body; one of them is required)",
      schema: { type: "string", minLength: 1, maxLength: 64 },
    },
  ];
}

function description(op: AnyOperation): string {
  const parts = [op.description ?? op.summary];
  const echoed = echoedKeys(op);
  if (echoed.length)
    parts.push(`The body may repeat the path's ${echoed.map((k) => `\`${k}\``).join(", ")}: left out, it is taken from the path; a different value is 400 and nothing changes.`);
  return parts.join("\n\n");
}

/** Components no path reaches (e.g. a named body that every operation using it replaced by a copy). */
function pruneComponents(roots: unknown[], components: Record<string, Json>): void {
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
          const name = v.slice("#/components/schemas/".length);
          if (!reached.has(name)) {
            reached.add(name);
            visit(components[name]);
          }
        } else visit(v);
      }
    }
  };
  visit(roots);
  for (const name of Object.keys(components)) if (!reached.has(name)) delete components[name];
}

const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

export function buildOpenApi(ops: readonly AnyOperation[]): Json {
  const components: Record<string, Json> = {
    Error: {
      type: "object",
      required: ["message", "code"],
      properties: {
        message: { type: "string" },
        code: { type: "string", enum: Object.keys(ERROR_STATUS) },
        data: { type: "object", additionalProperties: true },
      },
    },
  };
  const paths: Record<string, Json> = {};
  const used = new Set<number>();
  const tags: string[] = [];
  for (const op of ops) {
    const bases = basesOf(op);
    if (!tags.includes(op.tag)) tags.push(op.tag);
    const responses: Json = { "200": { description: "Success", headers: { ...RATE_LIMIT_HEADERS }, content: { "application/json": { schema: toSchema(op.response, "output", components) } } } };
    if (isIdempotent(op))
      ((responses["200"] as Json).headers as Json)["Idempotent-Replayed"] = { description: "`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`", schema: { type: "string", enum: ["true"] } };
    for (const code of declaredStatuses(op)) {
      used.add(code);
      responses[String(code)] = { $ref: `#/components/responses/E${code}` };
    }
    responses.default = { $ref: "#/components/responses/Error" };
    const operation: Json = {
      operationId: op.id,
      summary: op.summary,
      description: description(op),
      tags: [op.tag],
      servers: bases.map((b) => ({ url: BASE_PATH[b], description: `${BASE_CREDENTIAL[b]} credential` })),
      security: op.auth === "none" ? [] : op.auth.flatMap((c) => SECURITY[c]),
      parameters: [...parameters(op.params, "path", components), ...parameters(op.query, "query", components), ...headerParameters(op), ...idempotencyParameter(op)],
      responses,
    };
    if (op.body) {
      operation.requestBody = { required: !bodyIsOptional(op), content: { "application/json": { schema: bodySchema(op, components) } } };
    }
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operation;
  }
  pruneComponents([paths, errorContent], components);
  const errorResponses = Object.fromEntries(
    [...used].sort((a, b) => a - b).map((code) => [
      `E${code}`,
      {
        description: ERROR_DESCRIPTIONS[code] ?? `\`${Object.keys(ERROR_STATUS).find((c) => ERROR_STATUS[c as keyof typeof ERROR_STATUS] === code)}\``,
        headers: { ...RATE_LIMIT_HEADERS, ...(code === 429 ? { "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer", minimum: 0 } } } : {}) },
        content: errorContent,
      },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Todo Service API",
      version: "1.0.0",
      description:
        "Todos in projects, each a conversation with an AI agent. Every operation is served under the base paths whose credential it accepts: `/api/v1` (API key), `/cookie/v1` (browser session) and `/dst/v1` (device token); server URLs are relative to this document's origin. Timestamps are milliseconds since the epoch; errors are `{message, code, data?}`. A known path asked with a method it does not serve is `405 METHOD_NOT_SUPPORTED` with an `Allow` header. Request bodies are uncompressed UTF-8 JSON (a leading byte order mark is ignored; another `Content-Encoding`, another content type, bytes that are not UTF-8 or malformed JSON are `400`), at most 1 MiB (`413`).",
    },
    servers: (Object.keys(BASE_PATH) as Base[]).map((b) => ({ url: BASE_PATH[b], description: `${BASE_CREDENTIAL[b]} credential` })),
    tags: tags.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    components: {
      schemas: components,
      headers: {
        RateLimit: {
          description: 'The budget left in the current window, draft-ietf-httpapi-ratelimit-headers-10: `"<policy>";r=<remaining>;t=<seconds until the window resets>`',
          schema: { type: "string", examples: ['"default";r=599;t=42'] },
        },
        "RateLimit-Policy": {
          description: 'The policy that counted this request: `"<policy>";q=<requests per window>;w=<window in seconds>` (README "Rate limits")',
          schema: { type: "string", examples: ['"default";q=600;w=60'] },
        },
      },
      responses: {
        ...errorResponses,
        Error: { description: "Any other error, e.g. `500 INTERNAL_SERVER_ERROR` (the detail is logged under the response's `x-request-id`)", headers: { ...RATE_LIMIT_HEADERS }, content: errorContent },
      },
      securitySchemes: {
        ApiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "`tsk_` + 40 base62 characters" },
        ApiKeyBearer: { type: "http", scheme: "bearer", description: "The API key as a Bearer token" },
        SessionCookie: { type: "apiKey", in: "cookie", name: "authjs.session-token", description: "Browser session; writes need a same-origin Origin or Referer" },
        DeviceToken: { type: "http", scheme: "bearer", bearerFormat: "dst_", description: "Short-lived device session token" },
      },
    },
  };
}
