"use client";

import { useId, useState } from "react";
import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import type { TAgentProviderInfo, TAgentSettings } from "@/lib/schemas/agent";
import { errorMessage } from "@/lib/ui/form-issues";
import { PROVIDER_KIND_LABEL, defaultModelText, withModel } from "@/lib/ui/format";
import styles from "./todo.module.css";

/** One choice of the picker: a provider and one of its models (none: the provider's own default, or the built-in agent). */
type Choice = { key: string; provider: string; model?: string; label: string };

const keyOf = (provider: string | undefined, model: string | undefined) => (provider === undefined && model === undefined ? "" : `${provider ?? ""}\n${model ?? ""}`);

function providerLabel(p: TAgentProviderInfo): string {
  if (p.kind === "local") return "Built in";
  return `${p.name} (${PROVIDER_KIND_LABEL[p.kind]})`;
}

/** A provider's models; the provider alone (its default model) when it lists none, or when the todo names it alone. */
function choicesOf(p: TAgentProviderInfo, current: string): Choice[] {
  const alone: Choice = { key: keyOf(p.name, undefined), provider: p.name, label: p.kind === "local" ? "Offline agent" : `${p.defaultModel ?? "its default model"} (${p.name}'s default)` };
  if (p.models.length === 0) return [alone];
  const models = p.models.map((m) => ({ key: keyOf(p.name, m.name), provider: p.name, model: m.name, label: m.name }));
  return current === alone.key ? [alone, ...models] : models;
}

/** Settings the picker has no choice for: a model named without its provider, or one the server no longer offers. */
function otherLabel(settings: TAgentSettings | null, providers: readonly TAgentProviderInfo[]): string {
  const named = [settings?.provider ?? "default provider", settings?.model].filter(Boolean).join(" · ");
  const provider = providers.find((p) => (settings?.provider ? p.name === settings.provider : p.default));
  const offered = provider && (!settings?.model || provider.models.some((m) => m.name === settings.model) || provider.kind === "local");
  return offered ? named : `${named} (not available any more)`;
}

/**
 * The configured providers' models as choices of a select (settings_getAgentProviders), grouped
 * per provider; `current` is the key of the settings in use (a provider named alone stays a choice).
 */
export function useModelChoices(current: string) {
  const { data } = useOperation("settings_getAgentProviders", {});
  const providers = data?.providers ?? [];
  const groups = providers.map((p) => ({ provider: p, choices: choicesOf(p, current) }));
  const choices = groups.flatMap((g) => g.choices);
  const fallback = providers.find((p) => p.default);
  return { providers, groups, choices, defaultText: fallback ? defaultModelText(fallback) : null };
}

/** The choices as one option group per provider. */
export function ModelOptions({ groups }: { groups: ReturnType<typeof useModelChoices>["groups"] }) {
  return groups.map(({ provider: p, choices: own }) => (
    <optgroup key={p.name} label={providerLabel(p)}>
      {own.map((c) => (
        <option key={c.key} value={c.key}>
          {c.label}
        </option>
      ))}
    </optgroup>
  ));
}

/**
 * The model of a todo's next turns, beside the composer (todo_updateAgentMapping): the providers
 * and models the operator configured (settings_getAgentProviders), or the service's default. Other
 * agent settings of the todo (system prompt, temperature …) are kept. Shown only when there is a
 * choice to make; the chat follows the change live (todo.updated).
 */
export function AgentPicker({ todoId, settings }: { todoId: string; settings: TAgentSettings | null }) {
  const id = useId();
  // What was asked for, shown until the todo says so (its todo.updated event, or a reload).
  const [pending, setPending] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = keyOf(settings?.provider, settings?.model);
  // Once the todo says what was asked for (or anything newer), the todo is the truth again.
  const [seen, setSeen] = useState(current);
  if (seen !== current) {
    setSeen(current);
    setPending(null);
  }

  const { providers, groups, choices, defaultText } = useModelChoices(current);
  if (choices.length < 2) return null;
  const defaultLabel = defaultText ? `Default (${defaultText})` : "Default";
  const value = pending ?? current;
  const known = value === "" || choices.some((c) => c.key === value);

  async function choose(key: string) {
    const next: TAgentSettings = withModel(settings, choices.find((c) => c.key === key) ?? null);
    setPending(key);
    setBusy(true);
    setError(null);
    try {
      await call("todo_updateAgentMapping", { params: { todoId }, body: { agentSettings: next } });
    } catch (err) {
      setPending(null);
      setError(`Could not change the model: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.agentPicker}>
      <label htmlFor={id}>Model</label>
      <select id={id} aria-label="Model" value={value} disabled={busy} aria-busy={busy} title="The model that writes this todo's next replies" onChange={(e) => void choose(e.target.value)}>
        <option value="">{defaultLabel}</option>
        <ModelOptions groups={groups} />
        {known ? null : <option value={value}>{otherLabel(settings, providers)}</option>}
      </select>
      {error ? (
        <p role="alert" className={`error ${styles.hint}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
