import { ApiError } from "./errors.ts";

type HeaderGetter = (name: string) => string | null | undefined;

/**
 * The origins that count as this app: APP_URL's, and the one the request was addressed to (its
 * Host, which a browser always sets truthfully). X-Forwarded-Host/Proto come from the client
 * unless a reverse proxy overwrites them, so they count only with TRUST_PROXY.
 */
export function appOrigins(header: HeaderGetter, appUrl: string, opts: { trustProxy: boolean; protocol: string }): Set<string> {
  const allowed = new Set<string>([new URL(appUrl).origin]);
  const forwardedHost = opts.trustProxy ? firstValue(header("x-forwarded-host")) : undefined;
  const host = forwardedHost ?? header("host");
  if (host) {
    const proto = (opts.trustProxy ? firstValue(header("x-forwarded-proto")) : undefined) ?? opts.protocol;
    allowed.add(`${proto}://${host}`);
  }
  return allowed;
}

/** A proxy chain appends: the first value is the client-facing one. */
function firstValue(value: string | null | undefined): string | undefined {
  return value?.split(",")[0]?.trim() || undefined;
}

/** Whether a browser-sent Origin names this app (false for "null" and unreadable values). */
export function isAppOrigin(source: string, header: HeaderGetter, appUrl: string, opts: { trustProxy: boolean; protocol: string }): boolean {
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    return false;
  }
  return appOrigins(header, appUrl, opts).has(origin);
}

/**
 * Cookie-authenticated operations that change state must come from our own pages: the Origin
 * (or, failing that, the Referer) must name this app. Browsers send one of them on cross-site
 * writes; a cross-site GET (an <img> or link) carries neither, so it is refused too.
 */
export function checkSameOrigin(request: Request, appUrl: string, trustProxy = false): void {
  const source = request.headers.get("origin") ?? request.headers.get("referer");
  if (!source || source === "null") throw new ApiError("FORBIDDEN", "Cross-site request refused: Origin or Referer header required");
  const protocol = new URL(request.url).protocol.replace(":", "");
  if (!isAppOrigin(source, (n) => request.headers.get(n), appUrl, { trustProxy, protocol })) throw new ApiError("FORBIDDEN", "Cross-site request refused");
}
