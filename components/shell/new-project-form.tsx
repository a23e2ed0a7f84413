"use client";

import { useId, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { apiFetch } from "@/lib/api-client";
import { ZProjectCreateInput, type TProjectFull } from "@/lib/schemas/projects";
import { errorMessage, issueMessages } from "@/lib/ui/format";
import { useShell } from "./shell-context";

/** Creates a project (validated with the API's own schema), refreshes the sidebar and opens it. */
export function NewProjectForm({ label = "New project name", submitLabel = "Add project", className }: { label?: string; submitLabel?: string; className?: string }) {
  const { refreshProjects } = useShell();
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = ZProjectCreateInput.safeParse({ name });
    if (!parsed.success) {
      setError(issueMessages(parsed.error.issues, { name: "Name" }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const project = await apiFetch<TProjectFull>("/projects", { method: "POST", body: parsed.data });
      setName("");
      await refreshProjects();
      router.push(`/projects/${project.id}`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={className ?? "stack-form"} onSubmit={submit} noValidate>
      <label htmlFor={id}>{label}</label>
      <div className="inline-fields">
        <input id={id} type="text" value={name} onChange={(e) => setName(e.target.value)} maxLength={220} autoComplete="off" aria-invalid={error ? true : undefined} />
        <button type="submit" disabled={busy}>
          {busy ? "Adding…" : submitLabel}
        </button>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
