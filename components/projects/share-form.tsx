"use client";

import { useId, useState, type FormEvent } from "react";
import { apiFetch } from "@/lib/api-client";
import { ZShareProjectInput, type TProject } from "@/lib/schemas/projects";
import { errorMessage, issueMessages } from "@/lib/ui/format";

/** Shares the project with another account by email, as editor or viewer (owner only). */
export function ShareForm({ projectId, onDone }: { projectId: string; onDone(): void }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"editor" | "viewer">("editor");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setDone(null);
    const parsed = ZShareProjectInput.safeParse({ email, role });
    if (!parsed.success) {
      setError(issueMessages(parsed.error.issues, { email: "Email", role: "Role" }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await apiFetch<TProject>(`/projects/${encodeURIComponent(projectId)}/share`, { method: "POST", body: parsed.data });
      setDone(`Shared with ${parsed.data.email} as ${parsed.data.role}.`);
      setEmail("");
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel" onSubmit={submit} noValidate aria-label="Share project">
      <div className="field-row">
        <div className="field grow">
          <label htmlFor={`${id}-email`}>Share with (email)</label>
          <input id={`${id}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" aria-invalid={error ? true : undefined} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as "editor" | "viewer")}>
            <option value="editor">Editor (reads and writes)</option>
            <option value="viewer">Viewer (reads only)</option>
          </select>
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? "Sharing…" : "Share"}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Close
        </button>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
    </form>
  );
}
