import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { BASE_PATH } from "../auth/caller.ts";
import { ApiError } from "./errors.ts";

const BASES = Object.values(BASE_PATH);

function isApiPath(pathname: string): boolean {
  return BASES.some((b) => pathname === b || pathname.startsWith(`${b}/`));
}

/**
 * Next.js decodes a route's path before our handler runs and answers a broken percent-encoding
 * (`/api/v1/todos/%E0%A4%A`) with a plain-text 500. The custom server answers such API requests
 * itself first: 400 in the error shape, with `x-request-id`. Returns true when it answered.
 */
export function answerMalformedApiUrl(req: IncomingMessage, res: ServerResponse): boolean {
  const raw = req.url ?? "/";
  const q = raw.indexOf("?");
  const pathname = q === -1 ? raw : raw.slice(0, q);
  if (!isApiPath(pathname)) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    const header = req.headers["x-request-id"];
    const requestId = (typeof header === "string" ? header.slice(0, 64) : "") || randomUUID();
    const error = new ApiError("BAD_REQUEST", "Malformed percent-encoding in the URL path", {
      issues: [{ path: "path", message: "not valid percent-encoded UTF-8", code: "invalid_encoding" }],
    });
    res.writeHead(error.status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-request-id": requestId });
    res.end(JSON.stringify(error.toBody()));
    return true;
  }
}
