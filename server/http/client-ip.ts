/**
 * The custom server (server/main.ts) writes the socket's peer address into this request header,
 * overwriting anything a client sent, so the pipeline and the sign-in route can key limits by IP.
 * Its own module so the app's bundle can read it without the limiter.
 */
export const CLIENT_IP_HEADER = "x-todo-client-ip";

/** A client's rate-limit key by IP (server/http/rate-limit.ts); here so route bundles need not load the limiter. */
export function ipKey(ip: string | null | undefined): string {
  return `ip:${ip || "unknown"}`;
}
