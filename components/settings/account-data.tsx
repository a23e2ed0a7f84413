"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { call, COOKIE_BASE } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { errorMessage } from "@/lib/ui/form-issues";
import { Section } from "@/components/ui/form";
import { ErrorAlert } from "@/components/ui/error-alert";
import { forgetDeletedSessionAction } from "./account-actions";
import styles from "./settings.module.css";

/** user_exportData: the browser downloads the streamed body straight to a file. */
export function ExportData() {
  return (
    <Section
      id="export"
      title="Your data"
      description="Download everything your account holds as one JSON file: projects, todos, messages, notes, devices, billing history. Keys, tokens and passwords are never in it."
    >
      <a className="button-link" href={`${COOKIE_BASE}/users/export`} download data-testid="export-data">
        Download my data
      </a>
    </Section>
  );
}

/**
 * user_deleteAccount behind a typed confirmation (the account's email), then the goodbye page.
 * The owner of a team with others in it is sent to the team first: the server refuses (409
 * owns_team) until the team is handed over or emptied.
 */
export function DeleteAccount({ email }: { email: string }) {
  const team = useOperation("billing_getTeam", {});
  const others = team.data && team.data.role === "owner" ? team.data.members.filter((m) => m.userId !== team.data!.ownerId).length : 0;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!matches) return setError("Type your email address exactly as shown to confirm.");
    setBusy(true);
    setError(null);
    try {
      await call("user_deleteAccount", { body: { confirm: typed } });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
      return;
    }
    await forgetDeletedSessionAction();
  }

  return (
    <section className={`card ${styles.danger}`} aria-labelledby="danger-heading">
      <h2 id="danger-heading" className={styles.sectionTitle}>
        Danger zone
      </h2>
      <p>
        Deleting your account is permanent. Your projects and their todos go, also for the people you shared them with; your keys, devices and sessions stop working at
        once. Download your data first if you want to keep it.
      </p>
      {others > 0 ? (
        <p role="note" data-testid="delete-owns-team">
          You own the team <strong>{team.data!.name}</strong>, which has {others} other {others === 1 ? "member" : "members"}. Its members&apos; turns are paid by your
          account, so before you can delete it, <Link href="/team">hand the team over</Link> to a member who accepts it, or remove its members.
        </p>
      ) : !open ? (
        <button type="button" className="secondary danger-outline" onClick={() => setOpen(true)}>
          Delete my account…
        </button>
      ) : (
        <form onSubmit={(e) => void submit(e)} aria-label="Delete your account" noValidate>
          <div className={styles.field}>
            <label htmlFor="delete-confirm">
              Type <strong>{email}</strong> to confirm
            </label>
            <input
              id="delete-confirm"
              className={styles.control}
              type="email"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={error ? true : undefined}
              autoFocus
            />
          </div>
          <div className="inline-fields">
            <button type="submit" className="danger" disabled={busy || !matches} aria-busy={busy}>
              {busy ? "Deleting…" : "Delete my account permanently"}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => {
                setOpen(false);
                setTyped("");
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
          <ErrorAlert message={error} />
        </form>
      )}
    </section>
  );
}
