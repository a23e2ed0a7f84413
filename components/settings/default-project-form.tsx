"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import { revalidateOperations } from "@/lib/api/swr";
import { ZProjectIdInput, type TProjectFull } from "@/lib/schemas/projects";
import { Field, SaveBar, Section, fieldAria, useForm } from "@/components/ui/form";
import styles from "./settings.module.css";

/** user_setDefaultProject: the project the user lands on at `/`, any project they can read. */
export function DefaultProjectForm({ projects, initial }: { projects: TProjectFull[]; initial: string | null }) {
  const [projectId, setProjectId] = useState(initial && projects.some((p) => p.id === initial) ? initial : "");
  const { status, errors, alert, submit, edited } = useForm();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    await submit(e, ZProjectIdInput.safeParse({ projectId }), async (body) => {
      await call("user_setDefaultProject", { body });
      void revalidateOperations(["user_profile"]);
    });
  }

  return (
    <Section id="default-project" title="Default project" description="The project you land on when you open the app.">
      {projects.length === 0 ? (
        <p className="muted" data-testid="no-projects">
          No projects yet. <Link href="/">Create a project</Link> first, then choose it here.
        </p>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Field id="default-project-select" label="Project" error={errors.projectId ? "Choose a project" : undefined}>
            <select
              className={styles.control}
              value={projectId}
              onChange={(e) => {
                edited();
                setProjectId(e.target.value);
              }}
              {...fieldAria("default-project-select", errors.projectId)}
            >
              {projectId === "" ? <option value="">No default yet: choose a project</option> : null}
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                  {p.role === "owner" ? "" : ` (shared, ${p.role})`}
                </option>
              ))}
            </select>
          </Field>
          <SaveBar status={status} alert={alert} label="Save default project" />
        </form>
      )}
    </Section>
  );
}
