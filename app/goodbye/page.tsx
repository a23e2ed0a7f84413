import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Account deleted · Todo Service" };

/** Where account deletion ends (components/settings/account-data.tsx): signed out, nothing left. */
export default function GoodbyePage() {
  return (
    <section className="card" aria-labelledby="goodbye-heading">
      <h1 id="goodbye-heading">Your account is deleted</h1>
      <p>Everything it held is gone, and every key, device and session of it has stopped working. Thank you for using Todo Service.</p>
      <p>
        You can sign up again with the same email at any time; the new account starts empty. <Link href="/signin">Sign in or sign up</Link>
      </p>
    </section>
  );
}
