"use client";

import { ErrorAlert, Outcome, type OutcomeState } from "@/components/ui/error-alert";
import Link from "next/link";
import { useEffect, useState } from "react";
import { ApiClientError, call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { LoadError, Loading } from "@/components/ui/load-state";

// /courses/<slug>: the signup form (works signed out), coupon redemption and the ideas wall
// (signed-in users submit and read ideas; hidden ones are not listed).

const message = (err: unknown) => (err instanceof ApiClientError || err instanceof Error ? err.message : String(err));

/**
 * A device fingerprint for the abuse audit: a hash of what the browser says about itself (not a
 * tracking id; the same device usually gives the same value, which is all the audit groups by).
 */
async function deviceFingerprint(): Promise<string> {
  const parts = [navigator.userAgent, navigator.language, screen.width, screen.height, screen.colorDepth, Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.hardwareConcurrency];
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join("|")));
  return Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function CoursePublicPage({ slug }: { slug: string }) {
  const course = useOperation("course_get", { params: { slug } });
  const profile = useOperation("user_profile", {});
  const [fingerprint, setFingerprint] = useState<string | undefined>(undefined);
  useEffect(() => {
    deviceFingerprint().then(setFingerprint, () => setFingerprint(undefined));
  }, []);

  if (course.error)
    return course.error.status === 404 ? (
      <section className="card">
        <h1>Course not found</h1>
        <p>There is no course at this address. Check the link you were given.</p>
      </section>
    ) : (
      <LoadError what="the course" message={course.error.message} onRetry={() => void course.mutate()} />
    );
  if (!course.data) return <Loading label="Loading the course…" />;
  const c = course.data;
  const signedIn = !!profile.data;
  return (
    <>
      <section className="card">
        <h1>{c.title}</h1>
        <p>Starts {new Date(c.startsAt).toLocaleString()}.</p>
        {c.perkDescription ? <p>Attendees get: {c.perkDescription}</p> : null}
      </section>
      <SignupForm slug={slug} fingerprint={fingerprint} />
      {signedIn ? (
        <>
          <RedeemForm fingerprint={fingerprint} />
          <IdeasWall slug={slug} />
        </>
      ) : (
        <section className="card">
          <h2>Ideas wall</h2>
          <p>
            <Link href={`/signin?next=${encodeURIComponent(`/courses/${slug}`)}`}>Sign in</Link> to read and submit ideas, and to redeem your coupon.
          </p>
        </section>
      )}
    </>
  );
}

function SignupForm({ slug, fingerprint }: { slug: string; fingerprint?: string }) {
  const [email, setEmail] = useState("");
  const [handle, setHandle] = useState("");
  const [busy, setBusy] = useState(false);
  const [out, setOut] = useState<OutcomeState>(null);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setOut(null);
    try {
      await call("course_signup", { params: { slug }, body: { email, fingerprint, ...(handle.trim() ? { socialHandle: handle.trim() } : {}) } });
      setOut({ ok: true, text: `Thank you. If ${email} was not signed up yet, a confirmation is on its way.` });
      setEmail("");
    } catch (err) {
      setOut({ ok: false, text: err instanceof ApiClientError && err.status === 429 ? "Too many signups from your network. Try again later." : message(err) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="signup-h">
      <h2 id="signup-h">Sign up</h2>
      <div className="field-row">
        <div className="field grow">
          <label htmlFor="signup-email">Email</label>
          <input id="signup-email" type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="signup-handle">Your handle on our Page (optional)</label>
          <input id="signup-handle" type="text" value={handle} onChange={(e) => setHandle(e.target.value)} />
        </div>
        <button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? "Signing up…" : "Sign up"}
        </button>
      </div>
      <Outcome out={out} />
    </form>
  );
}

function RedeemForm({ fingerprint }: { fingerprint?: string }) {
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [out, setOut] = useState<OutcomeState>(null);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setOut(null);
    try {
      const r = await call("course_redeemCoupon", { body: { code: code.trim(), fingerprint } });
      setOut({ ok: true, text: r.creditedCents ? `Redeemed: ${(r.creditedCents / 100).toFixed(2)} credit added.` : "Redeemed." });
      setCode("");
    } catch (err) {
      setOut({ ok: false, text: message(err) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="redeem-h">
      <h2 id="redeem-h">Redeem your coupon</h2>
      <div className="inline-fields">
        <label htmlFor="redeem-code" className="visually-hidden">
          Coupon code
        </label>
        <input id="redeem-code" type="text" required value={code} placeholder="XXXX-XXXX-XXXX" onChange={(e) => setCode(e.target.value)} />
        <button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? "Redeeming…" : "Redeem"}
        </button>
      </div>
      <Outcome out={out} />
    </form>
  );
}

function IdeasWall({ slug }: { slug: string }) {
  const ideas = useOperation("course_listIdeas", { params: { slug } });
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await call("course_submitIdea", { params: { slug }, body: { text } });
      setText("");
      await ideas.mutate();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card" aria-labelledby="wall-h">
      <h2 id="wall-h">Ideas wall</h2>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="idea-text">Your idea</label>
        <textarea id="idea-text" rows={2} required value={text} onChange={(e) => setText(e.target.value)} />
        <div className="form-actions">
          <button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? "Submitting…" : "Submit idea"}
          </button>
        </div>
        <ErrorAlert message={error} />
      </form>
      {ideas.error ? (
        <LoadError inline what="the ideas" message={ideas.error.message} onRetry={() => void ideas.mutate()} />
      ) : !ideas.data ? (
        <Loading inline label="Loading the ideas…" />
      ) : ideas.data.items.length === 0 ? (
        <p className="muted">No ideas yet. Be the first.</p>
      ) : (
        <ul className="plain" data-testid="ideas-wall">
          {ideas.data.items.map((i) => (
            <li key={i.id} style={{ marginTop: "0.5rem" }}>
              {i.text} <span className="muted">— {i.mine ? "you" : i.authorName}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
