"use client";

import type { TAgentSettings } from "@/lib/schemas/agent";
import type { FieldErrors } from "@/lib/ui/form-issues";
import { Field, fieldAria } from "@/components/ui/form";
import { useOperation } from "@/lib/api/swr";
import { PROVIDER_KIND_LABEL } from "@/lib/ui/format";
import styles from "./settings.module.css";

/** The form's view of AgentSettings: every field a string, empty meaning "not set". */
export type AgentForm = { provider: string; model: string; systemPrompt: string; temperature: string; maxTokens: string; agentSettingsId: string };

export function agentFormFrom(s: TAgentSettings | null): AgentForm {
  return {
    provider: s?.provider ?? "",
    model: s?.model ?? "",
    systemPrompt: s?.systemPrompt ?? "",
    temperature: s?.temperature === undefined ? "" : String(s.temperature),
    maxTokens: s?.maxTokens === undefined ? "" : String(s.maxTokens),
    agentSettingsId: s?.agentSettingsId ?? "",
  };
}

function num(v: string): number | undefined {
  const t = v.trim();
  return t === "" ? undefined : Number(t);
}

/**
 * The AgentSettings to send (unparsed: the caller validates it with the shared schema), or null
 * when every field is empty, which clears the settings.
 */
export function agentSettingsFromForm(f: AgentForm): Record<string, unknown> | null {
  const out: Record<string, unknown> = {
    provider: f.provider || undefined,
    model: f.model.trim() || undefined,
    systemPrompt: f.systemPrompt || undefined,
    temperature: num(f.temperature),
    maxTokens: num(f.maxTokens),
    agentSettingsId: f.agentSettingsId.trim() || undefined,
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return Object.keys(out).length === 0 ? null : out;
}

type Props = {
  /** Unique per page: prefixes the controls' ids. */
  idPrefix: string;
  legend: string;
  value: AgentForm;
  onChange: (next: AgentForm) => void;
  errors: FieldErrors;
  /** Where this object sits in the validated input, e.g. `defaultAgent`. */
  errorPath: string;
  disabled?: boolean;
};

export function AgentSettingsFields({ idPrefix, legend, value, onChange, errors, errorPath, disabled }: Props) {
  const err = (k: keyof AgentForm) => errors[`${errorPath}.${k}`];
  const set = (k: keyof AgentForm) => (e: { target: { value: string } }) => onChange({ ...value, [k]: e.target.value });
  const id = (k: string) => `${idPrefix}-${k}`;
  // The providers and models the operator configured (names only), for the picker.
  const { data: configured, error: listError } = useOperation("settings_getAgentProviders", {});
  const providers = configured?.providers ?? [];
  const chosen = providers.find((p) => (value.provider ? p.name === value.provider : p.default));
  const modelHint = chosen && chosen.models.length ? `${chosen.name}: ${chosen.models.map((m) => m.name).join(", ")}` : "a model the server allows, e.g. gpt-4o-mini";
  return (
    <fieldset className={styles.fieldset} disabled={disabled}>
      <legend>{legend}</legend>
      {errors[errorPath] ? <p className={styles.fieldError}>{errors[errorPath]}</p> : null}
      <div className={styles.grid}>
        <Field id={id("provider")} label="Provider" error={err("provider")}>
          <select className={styles.control} value={value.provider} onChange={set("provider")} {...fieldAria(id("provider"), err("provider"))}>
            <option value="">Service default</option>
            {configured ? (
              providers.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name === "local" ? "Local" : p.name} ({PROVIDER_KIND_LABEL[p.kind]})
                </option>
              ))
            ) : (
              <option value="local">Local (built in, offline)</option>
            )}
            {value.provider && configured && !providers.some((p) => p.name === value.provider) ? <option value={value.provider}>{value.provider} (not configured any more)</option> : null}
          </select>
          {listError ? <span className={styles.hint}>Could not load the configured providers: {listError.message}</span> : null}
        </Field>
        <Field id={id("model")} label="Model" error={err("model")}>
          <input type="text" list={id("model-options")} className={styles.control} value={value.model} onChange={set("model")} placeholder={modelHint} {...fieldAria(id("model"), err("model"))} />
          <datalist id={id("model-options")} data-testid="model-options">
            {(chosen?.models ?? []).map((m) => (
              <option key={m.name} value={m.name}>
                {m.inPerMTok === 0 && m.outPerMTok === 0 ? "free" : `${m.inPerMTok}/${m.outPerMTok} ¢ per M tokens in/out`}
              </option>
            ))}
          </datalist>
        </Field>
        <Field id={id("temperature")} label="Temperature" error={err("temperature")} hint="0 to 2">
          <input type="text" inputMode="decimal" className={styles.control} value={value.temperature} onChange={set("temperature")} {...fieldAria(id("temperature"), err("temperature"), "0 to 2")} />
        </Field>
        <Field id={id("maxTokens")} label="Max tokens" error={err("maxTokens")} hint="1 up to the server's limit (4096 unless configured)">
          <input type="text" inputMode="numeric" className={styles.control} value={value.maxTokens} onChange={set("maxTokens")} {...fieldAria(id("maxTokens"), err("maxTokens"), "1 up to the server's limit (4096 unless configured)")} />
        </Field>
        <Field id={id("agentSettingsId")} label="Preset id" error={err("agentSettingsId")} hint="Optional name of an agent-settings preset">
          <input
            type="text"
            className={styles.control}
            value={value.agentSettingsId}
            onChange={set("agentSettingsId")}
            {...fieldAria(id("agentSettingsId"), err("agentSettingsId"), true)}
          />
        </Field>
      </div>
      <Field id={id("systemPrompt")} label="System prompt" error={err("systemPrompt")}>
        <textarea className={`${styles.control} ${styles.textarea}`} rows={3} value={value.systemPrompt} onChange={set("systemPrompt")} {...fieldAria(id("systemPrompt"), err("systemPrompt"))} />
      </Field>
      <p className={styles.hint}>Leave every field empty for no default.</p>
    </fieldset>
  );
}
