import { connection } from "next/server";
import { getBridge } from "@/server/http/bridge";

export default async function CheckEmailPage() {
  await connection();
  const outbox = !getBridge()?.runtime.config.resendApiKey;
  return (
    <section className="card">
      <h1>Check your email</h1>
      <p>A sign-in link is on its way. It works once and expires in 24 hours.</p>
      {outbox ? (
        <p className="muted" data-testid="outbox-note">
          No mail provider is configured here: open the newest file in <code>data/outbox/</code> and follow its link.
        </p>
      ) : null}
    </section>
  );
}
