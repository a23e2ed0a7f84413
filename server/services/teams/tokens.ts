import { createHash, createHmac, randomBytes } from "node:crypto";
import { runtime } from "../../runtime.ts";

// Invite tokens are never stored. The link carries `tti_` + HMAC-SHA256(server secret, invite id
// and a per-invite salt); the row keeps the salt and the token's SHA-256. So the mail job, whose
// data is only the invite's id (docs/jobs.md: no secret in job data), can rebuild the link, and a
// copy of the database alone gives no working link. A new salt (an invite sent again) kills the
// previous link.

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

// The server always has AUTH_SECRET (server/auth/secret.ts makes one); processes without one
// (unit tests) use a per-process secret, so their links work only in that process.
const processSecret = randomBytes(32).toString("base64url");

function secret(): string {
  return runtime().config.authSecret ?? processSecret;
}

export function newSalt(): string {
  return randomBytes(16).toString("base64url");
}

export function inviteToken(inviteId: string, salt: string): string {
  return `tti_${createHmac("sha256", secret()).update(`team-invite:${inviteId}:${salt}`).digest("base64url")}`;
}

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
