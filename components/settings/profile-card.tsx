"use client";

import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import type { TUserProfileFull } from "@/lib/schemas/users";
import { call } from "@/lib/api/client";
import { revalidateOperations } from "@/lib/api/swr";
import { errorMessage } from "@/lib/ui/form-issues";
import { Section } from "@/components/ui/form";
import { RenameInput } from "@/components/ui/rename-input";
import { ErrorAlert } from "@/components/ui/error-alert";
import styles from "./settings.module.css";

/** The name others see, edited in place (settings_updateUserSettings `name`). */
function NameField({ name }: { name: string | null }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(e: FormEvent) {
    e.preventDefault();
    const next = value.trim();
    if (next.length > 100) return setError("Name: at most 100 characters.");
    setBusy(true);
    setError(null);
    try {
      await call("settings_updateUserSettings", { body: { name: next || null } });
      await revalidateOperations(["user_profile"]);
      toast.success(next ? "Name saved" : "Name cleared");
      setEditing(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (!editing) {
    return (
      <dd>
        <span data-testid="profile-name">{name ?? <span className="muted">Not set</span>}</span>{" "}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setValue(name ?? "");
            setEditing(true);
          }}
        >
          {name ? "Change" : "Add your name"}
        </button>
      </dd>
    );
  }
  return (
    <dd>
      <form className="inline-fields" onSubmit={(e) => void save(e)} aria-label="Your name" noValidate>
        <label htmlFor="profile-name-input" className="visually-hidden">
          Name
        </label>
        <RenameInput id="profile-name-input" value={value} onChange={setValue} onCancel={() => setEditing(false)} invalid={Boolean(error)} />
        <button type="submit" disabled={busy} aria-busy={busy}>
          Save
        </button>
        <button type="button" className="secondary" onClick={() => setEditing(false)}>
          Discard
        </button>
      </form>
      <ErrorAlert message={error} />
    </dd>
  );
}

export function ProfileCard({ profile }: { profile: TUserProfileFull }) {
  return (
    <Section id="profile" title="Profile">
      <dl className={styles.facts}>
        <dt>Email</dt>
        <dd data-testid="profile-email">{profile.email}</dd>
        <dt>Name</dt>
        <NameField key={profile.name ?? ""} name={profile.name} />
        <dt>Member since</dt>
        <dd>{new Date(profile.createdAt).toLocaleDateString()}</dd>
        {profile.isAdmin ? (
          <>
            <dt>Role</dt>
            <dd>Administrator</dd>
          </>
        ) : null}
      </dl>
    </Section>
  );
}
