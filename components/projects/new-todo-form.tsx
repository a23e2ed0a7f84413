"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { call } from "@/lib/api/client";
import { ZCreateTodoInput, type TTodo } from "@/lib/schemas/todos";
import type { TTodoGroup } from "@/lib/schemas/groups";
import { useForm } from "@/components/ui/form";
import { takeArrivalFocus } from "@/lib/ui/arrival-focus";
import { futureIssue } from "@/components/todo/form-validation";
import { GroupOptions } from "./group-options";
import { ModelOptions, useModelChoices } from "@/components/todo/agent-picker";
import { useOperation } from "@/lib/api/swr";
import { newTodoAgentSettings, type TAgentProviderInfo, type TAgentSettings } from "@/lib/schemas/agent";
import { defaultModelText, withModel } from "@/lib/ui/format";

/** When the agent starts on a new todo: when someone starts it, now, or at a time. */
type Start = "later" | "now" | "at";

/** The model that agent settings name, in words (the default provider's when they name none). */
function modelText(settings: TAgentSettings | null, providers: readonly TAgentProviderInfo[]): string | null {
  const provider = providers.find((p) => (settings?.provider ? p.name === settings.provider : p.default));
  if (!provider) return settings?.provider ?? null;
  return settings?.model && provider.kind !== "local" ? `${provider.name} · ${settings.model}` : defaultModelText(provider);
}

/**
 * The agent settings a new todo would take by default (newTodoAgentSettings), read when the form
 * offers a model: the default's label names it, and a model picked keeps its other settings.
 */
function useNewTodoDefaults(projectId: string, wanted: boolean) {
  const project = useOperation("settings_getProjectSettings", wanted ? { params: { projectId } } : null);
  const user = useOperation("settings_getUserSettings", wanted ? {} : null);
  if (!project.data || !user.data) return { loaded: false as const, settings: null };
  return { loaded: true as const, settings: newTodoAgentSettings({ mapping: project.data.agentSettings, projectDefaults: project.data.agentDefaults, userDefault: user.data.defaultAgent }) };
}

/** Creates a todo: content, optional group, the model when there is a choice, and when the agent starts on it (by hand, now, or at a time). */
export function NewTodoForm({ projectId, groups, onCreated }: { projectId: string; groups: TTodoGroup[]; onCreated(todo: TTodo): void }) {
  const id = useId();
  const [content, setContent] = useState("");
  const [groupSlug, setGroupSlug] = useState("");
  const [start, setStart] = useState<Start>("later");
  const [when, setWhen] = useState("");
  // The model: "" is the defaults (the server applies them); else a key of useModelChoices.
  const [model, setModel] = useState("");
  const models = useModelChoices("");
  const offerModels = models.choices.length > 1;
  const defaults = useNewTodoDefaults(projectId, offerModels);
  const { busy, alert, setAlert, submit: send } = useForm({ labels: { content: "Todo", groupSlug: "Group", scheduledAt: "Start at", agentSettings: "Model" } });
  const field = useRef<HTMLTextAreaElement>(null);
  // Arriving from the project's creation (NewProjectForm): the keyboard goes on, here.
  useEffect(() => {
    if (takeArrivalFocus(`project:${projectId}`)) field.current?.focus();
  }, [projectId]);

  // The one alert names its field: the time's marks the time, the model's the model, any other the text.
  const timeAlert = alert?.startsWith("Start at") ?? false;
  const modelAlert = alert?.startsWith("Model") ?? false;

  async function submit(e: FormEvent<HTMLFormElement>) {
    // A time must be in the future: the API would take a past one as "now".
    const time = start === "at" ? futureIssue(when, "Start at") : null;
    if (time?.issue) {
      e.preventDefault();
      return setAlert(time.issue);
    }
    const choice = model ? (models.choices.find((c) => c.key === model) ?? null) : null;
    if (choice && !defaults.loaded) {
      e.preventDefault();
      return setAlert("Model: the project's defaults are still loading. Try again in a moment.");
    }
    const parsed = ZCreateTodoInput.safeParse({
      content,
      groupSlug: groupSlug || undefined,
      ...(choice ? { agentSettings: withModel(defaults.settings, choice) } : {}),
      ...(time?.ms != null ? { scheduledAt: time.ms } : { startProcessing: start === "now" }),
    });
    await send(e, parsed, async (body) => {
      const todo = await call("project_createTodo", { params: { projectId }, body });
      setContent("");
      setStart("later");
      setWhen("");
      onCreated(todo);
    });
  }

  return (
    <form className="card new-todo" onSubmit={submit} noValidate aria-label="Add a todo">
      <label htmlFor={`${id}-content`}>New todo</label>
      <textarea
        ref={field}
        id={`${id}-content`}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        rows={2}
        placeholder="What should the agent work on?"
        aria-invalid={alert && !timeAlert && !modelAlert ? true : undefined}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) e.currentTarget.form?.requestSubmit();
        }}
      />
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-group`}>Group</label>
          <select id={`${id}-group`} value={groupSlug} onChange={(e) => setGroupSlug(e.target.value)}>
            <GroupOptions groups={groups} />
          </select>
        </div>
        {offerModels ? (
          <div className="field">
            <label htmlFor={`${id}-model`}>Model</label>
            <select
              id={`${id}-model`}
              value={model}
              aria-invalid={modelAlert ? true : undefined}
              onChange={(e) => {
                setModel(e.target.value);
                if (modelAlert) setAlert(null);
              }}
            >
              <option value="">{defaults.loaded ? `Default (${modelText(defaults.settings, models.providers) ?? "the service's"})` : "Default"}</option>
              <ModelOptions groups={models.groups} />
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-start`}>Agent</label>
          <select id={`${id}-start`} value={start} onChange={(e) => setStart(e.target.value as Start)}>
            <option value="later">Start it later, by hand</option>
            <option value="now">Start the agent now</option>
            <option value="at">Start at a time…</option>
          </select>
        </div>
        {start === "at" ? (
          <div className="field">
            <label htmlFor={`${id}-when`}>Start at</label>
            <input
              id={`${id}-when`}
              type="datetime-local"
              value={when}
              aria-invalid={timeAlert ? true : undefined}
              onChange={(e) => {
                setWhen(e.target.value);
                if (timeAlert) setAlert(null);
              }}
            />
          </div>
        ) : null}
        <div className="field push-end">
          <button type="submit" disabled={busy}>
            {busy ? "Adding…" : "Add todo"}
          </button>
        </div>
      </div>
      <ErrorAlert message={alert} />
    </form>
  );
}
