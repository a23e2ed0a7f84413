"use client";

import { useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import type { TAgentSettings } from "@/lib/schemas/agent";
import { ZProjectAgentSelectionInput } from "@/lib/schemas/settings";
import { AgentSettingsFields, agentFormFrom, agentSettingsFromForm } from "./agent-settings-fields";
import { SaveBar, Section, useForm } from "@/components/ui/form";

/** user_updateProjectAgentMapping: the caller's own agent defaults for new todos in this project. */
export function ProjectAgentMappingForm({ projectId, initial }: { projectId: string; initial: TAgentSettings | null }) {
  const [form, setForm] = useState(() => agentFormFrom(initial));
  const { status, errors, alert, submit, edited } = useForm();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    const parsed = ZProjectAgentSelectionInput.safeParse({ projectId, agentSettings: agentSettingsFromForm(form) });
    await submit(e, parsed, async (body) => {
      await call("user_updateProjectAgentMapping", { body });
    });
  }

  return (
    <Section id="my-agent" title="My agent for this project" description="Only for you: the agent settings your new todos in this project start with. Empty means the project's defaults.">
      <form onSubmit={onSubmit} noValidate>
        <AgentSettingsFields
          idPrefix="my-agent"
          legend="My agent settings"
          value={form}
          onChange={(next) => {
            edited();
            setForm(next);
          }}
          errors={errors}
          errorPath="agentSettings"
        />
        <SaveBar status={status} alert={alert} label="Save my agent settings" />
      </form>
    </Section>
  );
}
