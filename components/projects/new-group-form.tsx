"use client";

import { useId, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { call } from "@/lib/api/client";
import { ZGroupSlug, ZProjectGroupUpsertInput, type TTodoGroup } from "@/lib/schemas/groups";
import { slugify } from "@/lib/ui/format";
import { useForm } from "@/components/ui/form";

/** Adds a todo group; its slug is made from the name (an upsert on an existing slug would rename that group, so it is refused here). */
export function NewGroupForm({ projectId, groups, onCreated }: { projectId: string; groups: TTodoGroup[]; onCreated(group: TTodoGroup): void }) {
  const id = useId();
  const [name, setName] = useState("");
  const { busy, alert, setAlert, check, run } = useForm({ labels: { name: "Name" } });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const data = check(ZProjectGroupUpsertInput.safeParse({ name }));
    if (data === null) return;
    const slug = ZGroupSlug.safeParse(slugify(data.name));
    if (!slug.success) {
      setAlert("Name needs at least one letter or digit (a–z, 0–9)");
      return;
    }
    if (groups.some((g) => g.slug === slug.data)) {
      setAlert(`A group “${groups.find((g) => g.slug === slug.data)!.name}” already exists`);
      return;
    }
    await run(async () => {
      const group = await call("project_upsertGroup", { params: { projectId, slug: slug.data }, body: { name: data.name } });
      setName("");
      onCreated(group);
    });
  }

  return (
    <form className="new-group" onSubmit={submit} noValidate aria-label="New group">
      <label htmlFor={`${id}-name`}>New group name</label>
      <div className="inline-fields">
        <input id={`${id}-name`} type="text" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" aria-invalid={alert ? true : undefined} />
        <button type="submit" className="secondary" disabled={busy}>
          {busy ? "Adding…" : "Add group"}
        </button>
      </div>
      <ErrorAlert message={alert} />
    </form>
  );
}
