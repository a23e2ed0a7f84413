"use client";

import { useId, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { useRouter } from "next/navigation";
import { call } from "@/lib/api/client";
import { useForm } from "@/components/ui/form";
import { focusOnArrival } from "@/lib/ui/arrival-focus";
import { useShell } from "./shell-context";

/** Creates a project (validated with the API's own schema), refreshes the sidebar and opens it. */
export function NewProjectForm({ label = "New project name", submitLabel = "Add project", className }: { label?: string; submitLabel?: string; className?: string }) {
  const { refreshProjects } = useShell();
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState("");
  const { busy, alert, submit: send } = useForm({ labels: { name: "Name" } });

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // The schema (and zod) load with the first submit, not with every page's sidebar.
    const { ZProjectCreateInput } = await import("@/lib/schemas/projects");
    await send(e, ZProjectCreateInput.safeParse({ name }), async (body) => {
      const project = await call("project_create", { body });
      setName("");
      await refreshProjects();
      // The next step is its first todo: the project page puts the keyboard in that field.
      focusOnArrival(`project:${project.id}`);
      router.push(`/projects/${project.id}`);
    });
  }

  return (
    <form className={className ?? "stack-form"} onSubmit={submit} noValidate>
      <label htmlFor={id}>{label}</label>
      <div className="inline-fields">
        <input id={id} type="text" value={name} onChange={(e) => setName(e.target.value)} maxLength={220} autoComplete="off" aria-invalid={alert ? true : undefined} />
        <button type="submit" disabled={busy}>
          {busy ? "Adding…" : submitLabel}
        </button>
      </div>
      <ErrorAlert message={alert} />
    </form>
  );
}
