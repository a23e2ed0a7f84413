/**
 * The custom server (server/main.ts) writes the socket's peer address into this request header,
 * overwriting anything a client sent, so the pipeline and the sign-in route can key limits by IP.
 * Its own module so the app's bundle can read it without the limiter.
 */
export const CLIENT_IP_HEADER = "x-todo-client-ip";

/** The client's address: the peer, or behind a trusted proxy the first X-Forwarded-For entry. */
export function clientIp(req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } }, trustProxy: boolean): string {
  const forwarded = trustProxy ? String(req.headers["x-forwarded-for"] ?? "").split(",")[0]!.trim() : "";
  return forwarded || req.socket.remoteAddress || "unknown";
}

/** A client's rate-limit key by IP (server/http/rate-limit.ts); here so route bundles need not load the limiter. */
export function ipKey(ip: string | null | undefined): string {
  return `ip:${ip || "unknown"}`;
}
