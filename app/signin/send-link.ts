import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { signIn } from "@/auth";
import { signInMailLimited } from "@/server/auth/sign-in-limit";

// Asking for a sign-in link, for the sign-in page and the check-email page's "Send it again":
// within the sign-in mail limits (server/http/rate-limit.ts `signInMail`), through Auth.js's email
// provider as configured in auth.ts. The address is remembered in an HTTP-only cookie of /signin
// for a day, so the check-email page can name it and send the link again without asking.

const PENDING = "signin-pending";
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Where to go after signing in: a path on this site only (never `//host` or a scheme), else `/`. */
export function safeNext(next: string | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

export function isEmail(email: string): boolean {
  return EMAIL.test(email);
}

export type PendingSignIn = { email: string; next: string };

/** The address this browser last asked a link for, and where the link leads after signing in. */
export async function pendingSignIn(): Promise<PendingSignIn | null> {
  const raw = (await cookies()).get(PENDING)?.value;
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { email?: unknown; next?: unknown };
    return typeof v.email === "string" && isEmail(v.email) ? { email: v.email, next: safeNext(typeof v.next === "string" ? v.next : undefined) } : null;
  } catch {
    return null;
  }
}

/** Seconds until the limit lets another link go out, from the limiter's 429. */
function retryAfter(refused: Response): number {
  const s = Number(refused.headers.get("retry-after"));
  return Number.isFinite(s) && s > 0 ? Math.ceil(s) : 60;
}

/**
 * Mails a link to `email` that signs in and goes to `next`, then redirects to `sent`; over the
 * limit, redirects to `refused` with `wait=<seconds>` added instead. Only in a server action.
 */
export async function sendSignInLink(email: string, next: string, to: { sent: string; refused: string }): Promise<never> {
  const refused = await signInMailLimited(email, await headers());
  if (refused) redirect(`${to.refused}${to.refused.includes("?") ? "&" : "?"}wait=${retryAfter(refused)}`);
  const redirectTo = safeNext(next);
  (await cookies()).set(PENDING, JSON.stringify({ email, next: redirectTo }), { httpOnly: true, sameSite: "lax", path: "/signin", maxAge: 24 * 60 * 60 });
  // Auth.js answers with where it would go: its verify-request route (which leads to the
  // check-email page) when the mail went out, else its error page (a mail provider that refused,
  // say), which is where the browser goes then.
  const landed = String(await signIn("resend", { email, redirectTo, redirect: false }));
  const path = new URL(landed, "http://local").pathname;
  redirect(path.endsWith("/verify-request") || path === "/signin/check-email" ? to.sent : landed);
}

/** A wait in plain words: "about 3 minutes". */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `about ${minutes} minute${minutes === 1 ? "" : "s"}`;
}
