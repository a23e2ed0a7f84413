import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { getBridge } from "@/server/http/bridge";
import { pendingSignIn, sendSignInLink, waitInWords } from "../send-link";

export const metadata: Metadata = { title: "Check your email · Todo Service" };

type Props = { searchParams: Promise<{ resent?: string; wait?: string }> };

export default async function CheckEmailPage({ searchParams }: Props) {
  await connection();
  const outbox = !getBridge()?.runtime.config.resendApiKey;
  const pending = await pendingSignIn();
  const { resent, wait } = await searchParams;
  const waitSeconds = Number(wait);
  return (
    <section className="card">
      <h1>Check your email</h1>
      {pending ? (
        <p data-testid="check-email-address">
          We sent a sign-in link to <strong>{pending.email}</strong>. It works once and expires in 24 hours.
        </p>
      ) : (
        <p>A sign-in link is on its way. It works once and expires in 24 hours.</p>
      )}
      {resent === "1" ? (
        <p role="status" data-testid="resend-result">
          A new link is on its way. Use the newest one.
        </p>
      ) : null}
      {Number.isFinite(waitSeconds) && waitSeconds > 0 ? (
        <p className="error" role="alert" data-testid="resend-result">
          Too many links were sent to this address. Try again in {waitInWords(Math.ceil(waitSeconds))}.
        </p>
      ) : null}
      {outbox ? (
        <p className="muted" data-testid="outbox-note">
          No mail provider is configured here: open the newest file in <code>data/outbox/</code> and follow its link.
        </p>
      ) : null}
      {pending ? (
        <form
          action={async () => {
            "use server";
            // The address comes from this browser's cookie, not from the form: the page only ever
            // sends again what this browser asked for.
            const again = await pendingSignIn();
            if (!again) return;
            await sendSignInLink(again.email, again.next, { sent: "/signin/check-email?resent=1", refused: "/signin/check-email" });
          }}
        >
          <p className="muted">No mail after a few minutes? Look in your spam folder, or:</p>
          <p className="inline-fields">
            <button type="submit" className="secondary">
              Send the link again
            </button>
            <Link href={`/signin?next=${encodeURIComponent(pending.next)}`}>Use a different address</Link>
          </p>
        </form>
      ) : (
        <p>
          <Link href="/signin">Back to sign in</Link>
        </p>
      )}
    </section>
  );
}
