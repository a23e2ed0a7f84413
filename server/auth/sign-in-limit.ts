import { getBridge } from "../http/bridge.ts";
import { CLIENT_IP_HEADER } from "../http/client-ip.ts";
import { errorResponse } from "../http/errors.ts";

/**
 * The 429 for a sign-in mail over its limits (per address, per IP), or null to go on. Both ways
 * to ask for a link call it: the Auth.js route and the sign-in page's form action. The limiter
 * is the custom server's (server/http/rate-limit.ts), reached through the bridge.
 */
export async function signInMailLimited(email: string, headers: Headers): Promise<Response | null> {
  const limits = getBridge()?.runtime.limits;
  if (!limits) return null;
  const refused = await limits.signInMail(email, headers.get(CLIENT_IP_HEADER));
  return refused ? errorResponse(refused) : null;
}
