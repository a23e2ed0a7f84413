import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { basesOf, type AnyOperation } from "../server/http/define.ts";
import { operations } from "../server/operations/index.ts";
import type { Client } from "./client.ts";

// `todo mcp`: a Model Context Protocol server over stdio whose tools are the service's operations,
// generated from the registry (one tool per operationId, its input the operation's zod schemas
// for path, query and body, merged), called over HTTP with the stored key. Reads only unless
// --allow-writes. The low-level Server is used because the tools' JSON Schemas are made here.

/** Not tools: credential management, Socket.IO subscriptions, login, administration, the document. */
const LEFT_OUT = /^(apiKey_|cli_|meta_)|_subscribe$/;

type Shape = Record<string, z.ZodType>;

function shapeOf(schema: z.ZodType | undefined): Shape {
  return schema instanceof z.ZodObject ? (schema.shape as Shape) : {};
}

export type Tool = { op: AnyOperation; name: string; readOnly: boolean; inputSchema: Record<string, unknown> };

/** The tools for a caller with an API key: operations served under /api/v1. */
export function toolsFromRegistry(allowWrites: boolean): Tool[] {
  return operations
    .filter((op) => basesOf(op).includes("api") && !op.admin && !LEFT_OUT.test(op.id))
    .filter((op) => allowWrites || op.method === "GET")
    .map((op) => {
      const body = op.body as z.ZodType | undefined;
      const merged = z.object({
        ...shapeOf(op.params as z.ZodType | undefined),
        ...shapeOf(op.query as z.ZodType | undefined),
        ...(body ? (body instanceof z.ZodObject ? shapeOf(body) : { body }) : {}),
      });
      const json = z.toJSONSchema(merged, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
      delete json.$schema;
      return { op, name: op.id, readOnly: op.method === "GET", inputSchema: json };
    });
}

/** Splits a tool's arguments back into the operation's path, query and body. */
export function requestOf(op: AnyOperation, args: Record<string, unknown>) {
  const pick = (shape: Shape) => Object.fromEntries(Object.entries(args).filter(([k]) => k in shape));
  const params = pick(shapeOf(op.params as z.ZodType | undefined));
  const query = pick(shapeOf(op.query as z.ZodType | undefined));
  const body = op.body ? (op.body instanceof z.ZodObject ? pick(shapeOf(op.body as z.ZodType)) : args.body) : undefined;
  return { params, query, body };
}

export async function serveMcp(client: Client, opts: { allowWrites: boolean }): Promise<void> {
  const tools = toolsFromRegistry(opts.allowWrites);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server({ name: "todo-service", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      description: [t.op.summary, t.op.description].filter(Boolean).join(". "),
      inputSchema: t.inputSchema as { type: "object"; properties?: Record<string, object> },
      annotations: { readOnlyHint: t.readOnly, destructiveHint: t.op.method === "DELETE", title: t.op.summary },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    if (!tool) return { isError: true, content: [{ type: "text", text: `Unknown tool ${req.params.name}${opts.allowWrites ? "" : " (writes need todo mcp --allow-writes)"}` }] };
    const { params, query, body } = requestOf(tool.op, (req.params.arguments ?? {}) as Record<string, unknown>);
    const path = tool.op.path.replace(/\{([^}]+)\}/g, (_, k: string) => encodeURIComponent(String(params[k] ?? "")));
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    const res = await client.send(tool.op.method, qs ? `${path}?${qs}` : path, body);
    const text = await res.text();
    return { isError: !res.ok, content: [{ type: "text", text: text || "null" }] };
  });
  await server.connect(new StdioServerTransport());
  // Stays up until the client closes stdin.
  await new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
}
