import { ApiError } from "./errors.ts";

/**
 * Cookie-authenticated writes must come from our own pages: the Origin (or, failing that, the
 * Referer) must name this host. Browsers always send one of them on cross-site POSTs.
 */
export function checkSameOrigin(request: Request, appUrl: string): void {
  const source = request.headers.get("origin") ?? request.headers.get("referer");
  if (!source || source === "null") throw new ApiError("FORBIDDEN", "Cross-site request refused: Origin or Referer header required");
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    throw new ApiError("FORBIDDEN", "Cross-site request refused: unreadable Origin");
  }
  const allowed = new Set<string>([new URL(appUrl).origin]);
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (host) {
    const proto = request.headers.get("x-forwarded-proto") ?? new URL(request.url).protocol.replace(":", "");
    allowed.add(`${proto}://${host}`);
  }
  if (!allowed.has(origin)) throw new ApiError("FORBIDDEN", "Cross-site request refused");
}
