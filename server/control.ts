import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { z } from "zod";
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

/** Handles /_control/* requests; returns false for every other path. */
export function handleControl(req: IncomingMessage, res: ServerResponse, token: string): boolean {
  if (!req.url?.startsWith("/_control/")) return false;
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const given = Buffer.from(String(req.headers["x-control-token"] ?? ""));
  const expected = Buffer.from(token);
  const remote = req.socket.remoteAddress ?? "";
  const local = remote === "127.0.0.1" || remote === "::1" || remote === "::ffff:127.0.0.1";
  if (!local || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    reply(404, { message: "Not found", code: "NOT_FOUND" });
    return true;
  }
  if (req.method === "POST" && req.url === "/_control/user-create") {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      let input: unknown;
      try {
        input = JSON.parse(raw);
      } catch {
        return reply(400, { message: "Malformed JSON body", code: "BAD_REQUEST" });
      }
      const parsed = ZUserCreate.safeParse(input);
      if (!parsed.success) return reply(400, { message: parsed.error.issues.map((i) => i.message).join("; "), code: "BAD_REQUEST" });
      createUserWithKey(parsed.data).then(
        (out) => reply(200, out),
        () => reply(500, { message: "Internal server error", code: "INTERNAL_SERVER_ERROR" }),
      );
    });
    return true;
  }
  reply(404, { message: "Not found", code: "NOT_FOUND" });
  return true;
}
