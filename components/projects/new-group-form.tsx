"use client";

import { useId, useState, type FormEvent } from "react";
import { apiFetch } from "@/lib/api-client";
import { ZGroupSlug, ZProjectGroupUpsertInput, type TTodoGroup } from "@/lib/schemas/groups";
import { errorMessage, issueMessages, slugify } from "@/lib/ui/format";

/** Adds a todo group; its slug is made from the name (an upsert on an existing slug would rename that group, so it is refused here). */
export function NewGroupForm({ projectId, groups, onCreated }: { projectId: string; groups: TTodoGroup[]; onCreated(group: TTodoGroup): void }) {
  const id = useId();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = ZProjectGroupUpsertInput.safeParse({ name });
    if (!parsed.success) {
      setError(issueMessages(parsed.error.issues, { name: "Name" }));
      return;
    }
    const slug = ZGroupSlug.safeParse(slugify(parsed.data.name));
    if (!slug.success) {
      setError("Name needs at least one letter or digit (a–z, 0–9)");
      return;
    }
    if (groups.some((g) => g.slug === slug.data)) {
      setError(`A group “${groups.find((g) => g.slug === slug.data)!.name}” already exists`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const group = await apiFetch<TTodoGroup>(`/projects/${encodeURIComponent(projectId)}/groups/${slug.data}`, { method: "PUT", body: { name: parsed.data.name } });
      setName("");
      onCreated(group);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="new-group" onSubmit={submit} noValidate aria-label="New group">
      <label htmlFor={`${id}-name`}>New group name</label>
      <div className="inline-fields">
        <input id={`${id}-name`} type="text" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" aria-invalid={error ? true : undefined} />
        <button type="submit" className="secondary" disabled={busy}>
          {busy ? "Adding…" : "Add group"}
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
