import { randomUUID } from "node:crypto";
import { log } from "../log.ts";
import { MAX_BODY_BYTES, readBodyBytes } from "./body.ts";
import { getBridge } from "./bridge.ts";
import { CLIENT_IP_HEADER, ipKey } from "./client-ip.ts";
import { ApiError, errorResponse, jsonResponse, toApiError } from "./errors.ts";
import type { RateLimits, RatePolicyName } from "./rate-limit.ts";

// The one way for a route outside the operation registry to receive its body as sent: a webhook
// whose signature covers the exact bytes (Stripe's `constructEvent(rawBody, signature, secret)`),
// which the pipeline's JSON parsing would destroy. An app route file exports it:
//
//   // app/webhooks/stripe/route.ts
//   export const POST = defineRawRoute({ id: "stripe_webhook", rateLimit: "webhook", handler: async (rawBody, request) => { … } });
//
// It keeps what the pipeline gives every request: a request id (`x-request-id`, echoed or made),
// the rate limit (the named policy, counted per client IP: a webhook has no credential of ours),
// the 1 MiB body limit (413), the error shape for anything thrown (an ApiError as is, anything
// else a logged, generic 500) and logging by route id and request id (never the body).

export type RawRouteContext = {
  requestId: string;
  /** The client's address as the custom server saw it (null in process). */
  ip: string | null;
  /** The exact bytes; `rawBody` is their UTF-8 text. */
  bytes: Buffer;
};

export type RawRouteDef = {
  /** Names the route in logs, e.g. `stripe_webhook`. */
  id: string;
  /** Rate-limit policy (RATE_POLICIES), counted per client IP. */
  rateLimit: RatePolicyName;
  /** Largest body in bytes (413 past it); default 1 MiB, like the API. */
  maxBytes?: number;
  /** Answers with a Response, or a value sent as JSON with 200. The request's body is already read. */
  handler: (rawBody: string, request: Request, ctx: RawRouteContext) => Promise<Response | unknown>;
};

export type RawRouteDeps = {
  /** The process's limiter; default the custom server's, through the bridge (none: not limited). */
  limits?: () => RateLimits | undefined;
};

export function defineRawRoute(def: RawRouteDef, deps: RawRouteDeps = {}): (request: Request) => Promise<Response> {
  const limitsOf = deps.limits ?? (() => getBridge()?.runtime.limits);
  return async function handle(request) {
    const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
    const headers: Record<string, string> = { "x-request-id": requestId };
    const ip = request.headers.get(CLIENT_IP_HEADER);
    try {
      const limits = limitsOf();
      if (limits) await limits.enforce(def.rateLimit, ipKey(ip), headers);
      const bytes = await readBodyBytes(request, def.maxBytes ?? MAX_BODY_BYTES);
      const answer = await def.handler(bytes.toString("utf8"), request, { requestId, ip, bytes });
      if (answer instanceof Response) {
        const merged = new Headers(answer.headers);
        for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
        return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: merged });
      }
      return jsonResponse(answer, 200, headers);
    } catch (err) {
      const { error, unexpected } = toApiError(err);
      if (unexpected) log.error("unhandled error", { route: def.id, requestId, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      else if (error.code !== "TOO_MANY_REQUESTS") log.warn("raw route refused a request", { route: def.id, requestId, status: error.status, code: error.code });
      return errorResponse(error, headers);
    }
  };
}

/**
 * The answer for a method a raw route does not serve: 405 `METHOD_NOT_SUPPORTED` in the error shape
 * with `Allow`, as the API's pipeline answers (Next's own 405 for a method a route file does not
 * export has an empty body). A route file exports it under each method it refuses:
 *
 *   const refuse = refuseMethod("/webhooks/stripe", ["POST"]);
 *   export { refuse as GET, refuse as PUT, refuse as PATCH, refuse as DELETE };
 */
export function refuseMethod(path: string, allow: readonly string[]): (request: Request) => Response {
  return (request) => {
    const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
    const error = new ApiError("METHOD_NOT_SUPPORTED", `${request.method.slice(0, 32)} is not supported at ${path}`, { allow: [...allow] });
    return errorResponse(error, { "x-request-id": requestId, allow: allow.join(", ") });
  };
}
