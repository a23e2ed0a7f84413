"use client";

import { useId, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { call } from "@/lib/api/client";
import { ZShareProjectInput } from "@/lib/schemas/projects";
import { useFormAction } from "@/lib/ui/use-form-action";

/** Shares the project with another account by email, as editor or viewer (owner only). */
export function ShareForm({ projectId, onDone }: { projectId: string; onDone(): void }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"editor" | "viewer">("editor");
  const { busy, error, submit: send } = useFormAction();
  const [done, setDone] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setDone(null);
    await send(ZShareProjectInput.safeParse({ email, role }), { email: "Email", role: "Role" }, async (body) => {
      await call("project_share", { params: { projectId }, body });
      setDone(`Shared with ${body.email} as ${body.role}.`);
      setEmail("");
    });
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
      <ErrorAlert message={error} />
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
    </form>
  );
}
