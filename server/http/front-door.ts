import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { CLIENT_IP_HEADER, clientIp } from "./client-ip.ts";
import { ApiError } from "./errors.ts";
import { REQUEST_PATH_HEADER } from "../../lib/request-path.ts";

// What the custom server does to every request before Next (pages and the API) sees it.

/** Every method a page or an operation may answer; anything else is 405 here (Next cannot even build a Request for TRACE). */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const SERVED = new Set<string>(SERVED_METHODS);

/**
 * Pages run Next's inline bootstrap scripts and styles (no nonces), so 'unsafe-inline' stays for
 * script and style; everything else is this origin only, and no page may be framed (the share
 * page may be linked from anywhere, never embedded). Development adds eval for hot reload.
 */
export function contentSecurityPolicy(dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(dev: boolean): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(dev),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
  };
}

// Set by clients unless a reverse proxy overwrites them; Next and Auth.js would believe them.
const FORWARDED = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-forwarded-for", "forwarded"];

/**
 * Prepares a request for Next: security headers on the response, client-sent X-Forwarded-*
 * dropped unless TRUST_PROXY, the client's address in CLIENT_IP_HEADER for per-IP rate limits
 * (overwriting any value a client sent), and the request's path in REQUEST_PATH_HEADER (for the
 * sign-in redirect's `next`). Answers (and returns true for) a method nothing serves: 405 in the
 * API's error shape with `Allow` and `x-request-id`.
 */
// Built once per process and mode, not on every request.
const SECURITY_HEADERS = { dev: Object.entries(securityHeaders(true)), production: Object.entries(securityHeaders(false)) };

export function frontDoor(req: IncomingMessage, res: ServerResponse, opts: { dev: boolean; trustProxy: boolean }): boolean {
  for (const [name, value] of SECURITY_HEADERS[opts.dev ? "dev" : "production"]) res.setHeader(name, value);
  if (!opts.trustProxy) for (const name of FORWARDED) delete req.headers[name];
  req.headers[CLIENT_IP_HEADER] = clientIp(req, opts.trustProxy);
  req.headers[REQUEST_PATH_HEADER] = req.url ?? "/";
  if (req.method && SERVED.has(req.method)) return false;
  const { status, headers, body } = methodNotAllowed(req.method ?? "", req.headers["x-request-id"]);
  // The request's body (if any) is not read: close the connection after answering.
  res.writeHead(status, { ...headers, connection: "close" });
  res.end(body);
  return true;
}

function methodNotAllowed(method: string, requestId: string | string[] | undefined) {
  const allow = SERVED_METHODS.join(", ");
  const error = new ApiError("METHOD_NOT_SUPPORTED", `${method.slice(0, 32)} is not supported by this server`, { allow: [...SERVED_METHODS] });
  const id = (typeof requestId === "string" && requestId.slice(0, 64)) || randomUUID();
  const body = JSON.stringify(error.toBody());
  return {
    status: error.status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "content-length": String(Buffer.byteLength(body)),
      allow,
      "x-request-id": id,
      ...securityHeaders(false),
    },
    body,
  };
}

function writeRaw(socket: Duplex, status: number, reason: string, headers: Record<string, string>, body: string): void {
  const lines = [`HTTP/1.1 ${status} ${reason}`, ...Object.entries({ ...headers, connection: "close" }).map(([k, v]) => `${k}: ${v}`)];
  socket.on("error", () => undefined);
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

/** CONNECT never reaches the request listener (Node emits "connect"): answer it the same way on the raw socket. */
export function refuseConnect(req: IncomingMessage, socket: Duplex): void {
  const { status, headers, body } = methodNotAllowed(req.method ?? "CONNECT", req.headers["x-request-id"]);
  writeRaw(socket, status, "Method Not Allowed", headers, body);
}

// Node's own answers to requests it cannot parse, kept, but in the API's error shape.
const CLIENT_ERRORS: Record<string, [number, string, "BAD_REQUEST" | "PAYLOAD_TOO_LARGE"]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "BAD_REQUEST"],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "Payload Too Large", "PAYLOAD_TOO_LARGE"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "BAD_REQUEST"],
};

/**
 * The server's "clientError": a method Node cannot even parse (anything outside its list) is 405
 * like TRACE; other unparseable requests keep Node's status, with a JSON body.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  if (err.code === "HPE_INVALID_METHOD") {
    const { status, headers, body } = methodNotAllowed("This method", undefined);
    writeRaw(socket, status, "Method Not Allowed", headers, body);
    return;
  }
  const [status, reason, code] = CLIENT_ERRORS[err.code ?? ""] ?? [400, "Bad Request", "BAD_REQUEST"];
  const body = JSON.stringify({ message: `Malformed HTTP request: ${reason.toLowerCase()}`, code });
  writeRaw(socket, status, reason, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(body)), "x-request-id": randomUUID() }, body);
}
