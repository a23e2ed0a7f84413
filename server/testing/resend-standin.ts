// Test support: a small local stand-in for Resend's HTTP API, for unit and e2e tests.
//
// The `resend` SDK reads RESEND_BASE_URL when a `Resend` client is constructed (not per request),
// so set `process.env.RESEND_BASE_URL = standin.url` (or pass it to the server's environment)
// BEFORE creating the mailer. The URL has no trailing slash: the SDK appends "/emails" as is.
//
// It answers POST /emails like Resend ({ id }), records every request, and can be told to answer
// the next request(s) with an error body such as Resend sends ({ statusCode, name, message }).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { listenLocal } from "./listen.ts";

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw request body. */
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
};

/** A message the stand-in accepted, as the SDK sent it, plus the id it answered with. */
export type AcceptedEmail = {
  id: string;
  from: string;
  to: string | string[];
  subject: string;
  text?: string;
  html?: string;
  [field: string]: unknown;
};

export type ResendStandin = {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** Every email accepted by POST /emails, oldest first. */
  emails: AcceptedEmail[];
  /**
   * Answers the next request with this status and body (queued: call it again for later ones).
   * An object is sent as JSON, like Resend's `{ statusCode, name, message }`; a string as plain text.
   */
  failNext(status: number, body: unknown): void;
  /** Resolves with the first accepted email matching `match`, waiting for it up to `timeoutMs`. */
  waitForEmail(match: (mail: AcceptedEmail) => boolean, timeoutMs?: number): Promise<AcceptedEmail>;
  /** Forgets recorded requests, emails and queued failures. */
  reset(): void;
  close(): Promise<void>;
};

export async function startResendStandin(opts: { port?: number; host?: string } = {}): Promise<ResendStandin> {
  const requests: RecordedRequest[] = [];
  const emails: AcceptedEmail[] = [];
  const failures: { status: number; body: unknown }[] = [];
  const waiters = new Set<() => void>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const path = (req.url ?? "/").split("?")[0]!;
      requests.push({ method: req.method ?? "", path, headers: req.headers, text, json });
      const reply = (status: number, body: unknown) => {
        if (typeof body === "string") {
          res.writeHead(status, { "content-type": "text/plain" });
          return res.end(body);
        }
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };

      const failure = failures.shift();
      if (failure) return reply(failure.status, failure.body);
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? ""))
        return reply(401, { statusCode: 401, name: "missing_api_key", message: "Missing API key in the authorization header." });
      if (req.method === "POST" && path === "/emails") {
        const body = json as Partial<AcceptedEmail> | undefined;
        if (!body || typeof body !== "object" || !body.from || !body.to || !body.subject)
          return reply(422, { statusCode: 422, name: "validation_error", message: "Missing `from`, `to` or `subject` field." });
        const id = randomUUID();
        emails.push({ ...(body as AcceptedEmail), id });
        for (const wake of waiters) wake();
        return reply(200, { id });
      }
      reply(404, { statusCode: 404, name: "not_found", message: `The requested endpoint ${req.method} ${path} does not exist.` });
    });
  });

  const origin = await listenLocal(server, opts);

  return {
    url: origin,
    requests,
    emails,
    failNext(status, body) {
      failures.push({ status, body });
    },
    waitForEmail(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = emails.find(match);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`Resend stand-in: no matching email within ${timeoutMs} ms (${emails.length} received)`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    reset() {
      requests.length = 0;
      emails.length = 0;
      failures.length = 0;
    },
    close() {
      for (const wake of waiters) waiters.delete(wake);
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
