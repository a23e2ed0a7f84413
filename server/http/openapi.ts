import { z } from "zod";
import { BASE_CREDENTIAL, BASE_PATH, type Base, type Credential } from "../auth/caller.ts";
import type { AnyOperation } from "../operations/define.ts";
import { ERROR_STATUS } from "./errors.ts";

type Json = Record<string, unknown>;

const SECURITY: Record<Credential, Json[]> = {
  apiKey: [{ ApiKeyHeader: [] }, { ApiKeyBearer: [] }],
  session: [{ SessionCookie: [] }],
  device: [{ DeviceToken: [] }],
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid path, query or body (`BAD_REQUEST`, `data.issues` lists each problem)",
  401: "Missing, invalid or expired credential (`UNAUTHORIZED`)",
  403: "Authenticated, but not allowed (`FORBIDDEN`)",
  404: "Not found, or not visible to the caller (`NOT_FOUND`)",
  409: "The current state does not allow it (`CONFLICT`)",
  413: "Body over 1 MiB (`PAYLOAD_TOO_LARGE`)",
};

/** Converts one zod schema, moving named schemas (`.meta({ id })`) into components. */
function toSchema(schema: z.ZodType, io: "input" | "output", components: Record<string, Json>): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
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

/** A body whose required fields all repeat path parameters may be left out (see pipeline.ts). */
function bodyIsOptional(op: AnyOperation): boolean {
  if (!op.body) return true;
  if (!(op.body instanceof z.ZodObject)) return op.body.safeParse(undefined).success;
  const shape = op.body.shape as Record<string, z.ZodType>;
  const pathParams = new Set(op.params ? Object.keys(op.params.shape) : []);
  return Object.entries(shape).every(([k, s]) => pathParams.has(k) || s.safeParse(undefined).success);
}

export function basesOf(op: AnyOperation): Base[] {
  return (Object.keys(BASE_PATH) as Base[]).filter((b) => op.auth === "none" || op.auth.includes(BASE_CREDENTIAL[b]));
}

export function buildOpenApi(ops: readonly AnyOperation[], appUrl: string): Json {
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
  for (const op of ops) {
    const bases = basesOf(op);
    const responses: Json = { "200": { description: "Success", content: { "application/json": { schema: toSchema(op.response, "output", components) } } } };
    const codes = new Set<number>([400]);
    if (op.auth !== "none") codes.add(401);
    if (op.params) codes.add(404);
    if (op.admin) codes.add(403);
    if (op.body) codes.add(413);
    for (const code of [...codes].sort()) responses[String(code)] = { $ref: `#/components/responses/E${code}` };
    responses.default = { $ref: "#/components/responses/Error" };
    const operation: Json = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      servers: bases.map((b) => ({ url: `${appUrl}${BASE_PATH[b]}` })),
      security: op.auth === "none" ? [] : op.auth.flatMap((c) => SECURITY[c]),
      parameters: [...parameters(op.params, "path", components), ...parameters(op.query, "query", components)],
      responses,
    };
    if (op.body) {
      operation.requestBody = { required: !bodyIsOptional(op), content: { "application/json": { schema: toSchema(op.body, "input", components) } } };
    }
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operation;
  }
  const errorResponses = Object.fromEntries(
    Object.entries(ERROR_DESCRIPTIONS).map(([code, description]) => [
      `E${code}`,
      { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Todo Service API",
      version: "1.0.0",
      description:
        "Todos in projects, each a conversation with an AI agent. Every operation is served under the base paths whose credential it accepts: `/api/v1` (API key), `/cookie/v1` (browser session) and `/dst/v1` (device token). Timestamps are milliseconds since the epoch; errors are `{message, code, data?}`.",
    },
    servers: (Object.keys(BASE_PATH) as Base[]).map((b) => ({ url: `${appUrl}${BASE_PATH[b]}`, description: `${BASE_CREDENTIAL[b]} credential` })),
    paths,
    components: {
      schemas: components,
      responses: {
        ...errorResponses,
        Error: { description: "Any other error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
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
