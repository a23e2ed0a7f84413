"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import type { TTodoGroup } from "@/lib/schemas/groups";
import { ZProjectSettingsUpdateInput, type TProjectSettingsFull } from "@/lib/schemas/settings";
import { AgentSettingsFields, agentFormFrom, agentSettingsFromForm, type AgentForm } from "./agent-settings-fields";
import { Field, SaveBar, Section, fieldAria, useForm } from "@/components/ui/form";
import styles from "./settings.module.css";

type Form = { defaultGroupSlug: string; brandMarkdown: string; agentDefaults: AgentForm };

function formFrom(s: TProjectSettingsFull): Form {
  return { defaultGroupSlug: s.defaultGroupSlug ?? "", brandMarkdown: s.brandMarkdown, agentDefaults: agentFormFrom(s.agentDefaults) };
}

type Props = {
  projectId: string;
  initial: TProjectSettingsFull;
  groups: TTodoGroup[];
  canEdit: boolean;
  /** The agent defaults are the owner's alone (they apply to every member's new todos). */
  canEditAgentDefaults: boolean;
  onSaved: (s: TProjectSettingsFull) => void;
};

/** settings_updateProjectSettings: shared by everyone on the project; owners and editors change it, the agent defaults only the owner. */
export function ProjectSettingsForm({ projectId, initial, groups, canEdit, canEditAgentDefaults, onSaved }: Props) {
  const [form, setForm] = useState<Form>(() => formFrom(initial));
  const { status, errors, alert, submit, edited } = useForm();

  function change(patch: Partial<Form>) {
    edited();
    setForm((f) => ({ ...f, ...patch }));
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    const parsed = ZProjectSettingsUpdateInput.safeParse({
      defaultGroupSlug: form.defaultGroupSlug || null,
      brandMarkdown: form.brandMarkdown,
      ...(canEditAgentDefaults ? { agentDefaults: agentSettingsFromForm(form.agentDefaults) } : {}),
    });
    await submit(e, parsed, async (body) => {
      await call("settings_updateProjectSettings", { params: { projectId }, body });
      const saved = await call("settings_getProjectSettings", { params: { projectId } });
      setForm(formFrom(saved));
      onSaved(saved);
    });
  }

  const groupKnown = form.defaultGroupSlug === "" || groups.some((g) => g.slug === form.defaultGroupSlug);

  return (
    <Section
      id="project-settings"
      title="Project settings"
      description={canEdit ? "Shared by everyone on this project." : "Shared by everyone on this project. You can view them; only the owner and editors can change them."}
    >
      <form onSubmit={onSubmit} noValidate>
        <fieldset className={styles.plainFieldset} disabled={!canEdit}>
          <Field
            id="project-default-group"
            label="Default group"
            error={errors.defaultGroupSlug}
            hint={groups.length === 0 ? "This project has no groups yet." : "New todos go into this group."}
          >
            <select
              className={styles.control}
              value={form.defaultGroupSlug}
              onChange={(e) => change({ defaultGroupSlug: e.target.value })}
              {...fieldAria("project-default-group", errors.defaultGroupSlug, true)}
            >
              <option value="">No default group</option>
              {groupKnown ? null : <option value={form.defaultGroupSlug}>{form.defaultGroupSlug} (missing)</option>}
              {groups.map((g) => (
                <option key={g.id} value={g.slug}>
                  {g.name}
                </option>
              ))}
            </select>
          </Field>
          {canEdit && !canEditAgentDefaults ? (
            <p className={styles.hint} data-testid="agent-defaults-owner-only">
              Only the project&apos;s owner can change the agent defaults: they apply to every member&apos;s new todos.
            </p>
          ) : null}
          <AgentSettingsFields
            disabled={!canEditAgentDefaults}
            idPrefix="project-agent-defaults"
            legend="Agent defaults for everyone"
            value={form.agentDefaults}
            onChange={(agentDefaults) => change({ agentDefaults })}
            errors={errors}
            errorPath="agentDefaults"
          />
          <Field
            id="project-brand"
            label="Brand page (Markdown)"
            error={errors.brandMarkdown}
            hint={
              <>
                Shown on the project&apos;s <Link href={`/brand/${encodeURIComponent(projectId)}`} prefetch={false}>
                  brand page
                </Link> (public when the project is); up to 100 KB.
              </>
            }
          >
            <textarea
              className={`${styles.control} ${styles.textarea}`}
              rows={6}
              value={form.brandMarkdown}
              onChange={(e) => change({ brandMarkdown: e.target.value })}
              {...fieldAria("project-brand", errors.brandMarkdown, true)}
            />
          </Field>
          {canEdit ? <SaveBar status={status} alert={alert} label="Save project settings" /> : null}
        </fieldset>
      </form>
    </Section>
  );
}
