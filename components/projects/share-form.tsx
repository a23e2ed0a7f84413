"use client";

import { useId, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { call } from "@/lib/api/client";
import { ZShareProjectInput } from "@/lib/schemas/projects";
import { useForm } from "@/components/ui/form";

/** Shares the project with another account by email, as editor or viewer (owner only). */
export function ShareForm({ projectId, onDone }: { projectId: string; onDone(): void }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"editor" | "viewer">("editor");
  const { busy, alert, submit: send } = useForm({ labels: { email: "Email", role: "Role" } });
  const [done, setDone] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    setDone(null);
    await send(e, ZShareProjectInput.safeParse({ email, role }), async (body) => {
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
          <input id={`${id}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" aria-invalid={alert ? true : undefined} />
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
      <ErrorAlert message={alert} />
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
    </form>
  );
}
