import type { OperationResult } from "../lib/api/types.ts";
import type { TAgentSettings } from "../lib/schemas/agent.ts";
import { PROVIDER_KIND_LABEL, defaultModelText, withModel } from "../lib/ui/format.ts";
import { CliError, EXIT } from "./exit-codes.ts";

// `todo models` and `todo model`: the providers and models the operator configured
// (settings_getAgentProviders), and a todo's choice among them (todo_updateAgentMapping).

type Provider = OperationResult<"settings_getAgentProviders">["providers"][number];

const price = (cents: number) => `${cents}¢`;

/** `todo models`: each provider and its models with their prices per million tokens, the default marked. */
export function modelsText(providers: readonly Provider[]): string {
  const lines: string[] = [];
  for (const p of providers) {
    lines.push(`${p.name}  (${PROVIDER_KIND_LABEL[p.kind]})${p.default ? "  ← default" : ""}`);
    if (p.kind === "local") lines.push("  the built-in offline agent: no model, free");
    for (const m of p.models) {
      const cost = m.inPerMTok === 0 && m.outPerMTok === 0 ? "free" : `${price(m.inPerMTok)} in / ${price(m.outPerMTok)} out per M tokens`;
      lines.push(`  ${m.name}  ${cost}${m.name === p.defaultModel ? "  (its default)" : ""}`);
    }
  }
  lines.push("", "Pick one for a todo: todo model <id> <provider>/<model>, a model's name, a provider, or default");
  return lines.join("\n");
}

/** What a todo's settings run on, in words: "openai · gpt-4.1-mini", or the default it falls back to. */
export function modelLabel(settings: Pick<TAgentSettings, "provider" | "model"> | null, providers: readonly Provider[]): string {
  if (settings?.provider || settings?.model) return [settings.provider ?? "default provider", settings.model].filter(Boolean).join(" · ");
  const d = providers.find((p) => p.default);
  if (!d) return "the service's default";
  return `the service's default (${d.kind === "local" ? "the " : ""}${defaultModelText(d)})`;
}

/**
 * The agent settings `choice` asks for, keeping the rest of `current` (system prompt, temperature …):
 * `default` (no provider or model), a provider's name, `provider/model`, or a model's name that
 * exactly one provider offers. Anything else is a usage error naming what there is.
 */
export function chooseModel(choice: string, providers: readonly Provider[], current: TAgentSettings | null): TAgentSettings {
  const text = choice.trim();
  if (text === "default") return withModel(current, null);
  const slash = text.indexOf("/");
  if (slash > 0) {
    const provider = text.slice(0, slash);
    const model = text.slice(slash + 1);
    const p = providers.find((x) => x.name === provider);
    if (!p) throw new CliError(`No provider ${JSON.stringify(provider)} here; there are: ${providers.map((x) => x.name).join(", ")} (see \`todo models\`).`, EXIT.USAGE);
    if (!p.models.some((m) => m.name === model)) throw new CliError(`${provider} has no model ${JSON.stringify(model)}; it has: ${p.models.map((m) => m.name).join(", ") || "none to choose"}.`, EXIT.USAGE);
    return withModel(current, { provider, model });
  }
  if (providers.some((p) => p.name === text)) return withModel(current, { provider: text });
  const offering = providers.filter((p) => p.models.some((m) => m.name === text));
  if (offering.length === 1) return withModel(current, { provider: offering[0]!.name, model: text });
  if (offering.length > 1) throw new CliError(`Several providers offer ${text}: name one, e.g. ${offering.map((p) => `${p.name}/${text}`).join(" or ")}.`, EXIT.USAGE);
  throw new CliError(`No provider or model ${JSON.stringify(text)} here (see \`todo models\`).`, EXIT.USAGE);
}
