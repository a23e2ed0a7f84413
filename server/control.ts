import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { z } from "zod";
import { MAX_BODY_BYTES, parseJsonBytes } from "./http/body.ts";
import { ApiError, badRequest, toApiError } from "./http/errors.ts";
import { zodIssues } from "./http/pipeline.ts";
import { log } from "./log.ts";
import { createUserWithKey } from "./services/users/users.ts";

/**
 * The embedded database is one PGlite instance that only the running server may open. So that
 * `npm run user:create` also works while the server runs, the server writes data/server.json
 * (port and a random token, readable only by this OS user) and answers that token on a local
 * control path. It is never served on the public API.
 */
export type ControlFile = { pid: number; port: number; token: string };

export function controlFilePath(dataDir: string): string {
  return path.join(dataDir, "server.json");
}

export function writeControlFile(dataDir: string, port: number): { token: string; remove(): void } {
  const token = randomBytes(32).toString("hex");
  const file = controlFilePath(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify({ pid: process.pid, port, token } satisfies ControlFile), { mode: 0o600 });
  return { token, remove: () => rmSync(file, { force: true }) };
}

export function readControlFile(dataDir: string): ControlFile | null {
  try {
    const parsed = JSON.parse(readFileSync(controlFilePath(dataDir), "utf8")) as ControlFile;
    process.kill(parsed.pid, 0); // throws when that server is gone
    return parsed;
  } catch {
    return null;
  }
}

const ZUserCreate = z.object({ email: z.string().email(), name: z.string().min(1).max(200).optional(), admin: z.boolean().optional() });

/** Reads the body as JSON, at most MAX_BODY_BYTES (413 past it), like the API's pipeline. */
function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const fail = (error: ApiError) => {
      if (done) return;
      done = true;
      req.resume(); // drain the rest so the answer can be written
      reject(error);
    };
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) return fail(new ApiError("PAYLOAD_TOO_LARGE", `Body exceeds ${MAX_BODY_BYTES} bytes`));
      chunks.push(chunk);
    });
    req.on("error", () => fail(badRequest("The request body could not be read")));
    req.on("end", () => {
      if (done) return;
      done = true;
      try {
        resolve(parseJsonBytes(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
}

async function userCreate(req: IncomingMessage): Promise<unknown> {
  const parsed = ZUserCreate.safeParse(await readBody(req));
  if (!parsed.success) {
    const issues = zodIssues(parsed.error, "body");
    throw badRequest(`Invalid body: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
  }
  return createUserWithKey(parsed.data);
}

/**
 * Handles /_control/* requests; returns false for every other path. Answers in the API's error
 * shape ({message, code, data?}, server/http/errors.ts); anything unknown stays "Not found".
 */
export function handleControl(req: IncomingMessage, res: ServerResponse, token: string): boolean {
  if (!req.url?.startsWith("/_control/")) return false;
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };
  const fail = (err: unknown) => {
    const { error, unexpected } = toApiError(err);
    if (unexpected) log.error("control request failed", { url: req.url, error: String(err) });
    reply(error.status, error.toBody());
  };
  const given = Buffer.from(String(req.headers["x-control-token"] ?? ""));
  const expected = Buffer.from(token);
  const remote = req.socket.remoteAddress ?? "";
  const local = remote === "127.0.0.1" || remote === "::1" || remote === "::ffff:127.0.0.1";
  if (!local || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    fail(new ApiError("NOT_FOUND", "Not found"));
    return true;
  }
  if (req.method === "POST" && req.url === "/_control/user-create") {
    userCreate(req).then((out) => reply(200, out), fail);
    return true;
  }
  fail(new ApiError("NOT_FOUND", "Not found"));
  return true;
}
