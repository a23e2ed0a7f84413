import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { getBridge } from "@/server/http/bridge";
import { isEmail, safeNext, sendSignInLink, waitInWords } from "./send-link";

export const metadata: Metadata = { title: "Sign in · Todo Service" };

/** Why the last attempt failed, in plain words (Auth.js's codes, and this page's own). */
function failure(error: string, wait: string | undefined): string {
  const seconds = Number(wait);
  switch (error) {
    case "InvalidEmail":
      return "That is not an email address we can send a link to. Check it and try again.";
    case "TooManyRequests":
      return `Too many sign-in links were asked for this address. Try again in ${Number.isFinite(seconds) && seconds > 0 ? waitInWords(Math.ceil(seconds)) : "a few minutes"}.`;
    case "Verification":
      return "That sign-in link was used already or has expired. Ask for a new one below.";
    default:
      return `Signing in did not work (${error}). Ask for a new link below.`;
  }
}

/** An address to fill in (a link that asks for a particular one, like a team invite's), if it looks like one. */
function suggestedEmail(email: string | string[] | undefined): string | undefined {
  return typeof email === "string" && email.length <= 254 && isEmail(email) ? email : undefined;
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; next?: string; email?: string | string[]; wait?: string }> }) {
  await connection();
  const { error, next, email: asked, wait } = await searchParams;
  const redirectTo = safeNext(next);
  const outbox = !getBridge()?.runtime.config.resendApiKey;
  return (
    <section className="card">
      <h1>Sign in</h1>
      <p className="muted">We email you a link that signs you in. No password.</p>
      {error ? (
        <p className="error" role="alert">
          {failure(error, wait)}
        </p>
      ) : null}
      <form
        action={async (form: FormData) => {
          "use server";
          const email = String(form.get("email") ?? "").trim();
          // From the form, checked again: the action closes over nothing (no encrypted bound state).
          const then = safeNext(String(form.get("next") ?? ""));
          // A refusal keeps where the visitor was going (an invite page, a device approval).
          const retry = (error: string) => `/signin?${new URLSearchParams({ error, ...(then === "/" ? {} : { next: then }) })}`;
          if (!isEmail(email)) redirect(retry("InvalidEmail"));
          await sendSignInLink(email, then, { sent: "/signin/check-email", refused: retry("TooManyRequests") });
        }}
      >
        <input type="hidden" name="next" value={redirectTo} />
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" required autoComplete="email" placeholder="you@example.com" defaultValue={suggestedEmail(asked)} />
        <p>
          <button type="submit">Email me a sign-in link</button>
        </p>
      </form>
      {outbox ? (
        <p className="muted" data-testid="outbox-note">
          This server has no mail provider configured: the sign-in link is written to <code>data/outbox/</code> as a JSON file.
        </p>
      ) : null}
    </section>
  );
}
