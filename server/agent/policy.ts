import type { TAgentSettings } from "../../lib/schemas/agent.ts";
import type { Config } from "../config.ts";
import { badRequest, type Issue } from "../http/errors.ts";
import { runtime } from "../runtime.ts";

// What agent settings may ask for on this server: a provider configured here, by name (never a
// URL: settings cannot make the server connect anywhere), a model of that provider's allow-list,
// and at most its maxTokens. For the built-in agent (which has one model) the model must be one of
// AGENT_MODELS and maxTokens at most AGENT_MAX_TOKENS. Checked when settings are written (400,
// nothing changes) and again when a turn starts (the provider refuses a model no longer allowed).

type Policy = Pick<Config, "agentModels" | "agentMaxTokens" | "agentProvider"> & { agentProviders: Pick<Config["agentProviders"][number], "name" | "models" | "maxTokens">[] };

/** The problems of `settings` under this server's policy; `at` is where they sit in the input (`body.agentSettings`). */
export function agentSettingsIssues(settings: TAgentSettings | null | undefined, at: string, config: Policy): Issue[] {
  if (!settings) return [];
  const issues: Issue[] = [];
  const name = settings.provider ?? config.agentProvider;
  const provider = config.agentProviders.find((p) => p.name === name);
  if (name !== "local" && !provider) {
    const names = ["local", ...config.agentProviders.map((p) => p.name)].join(", ");
    issues.push({ path: `${at}.provider`, message: `must be one of the providers this server is configured with: ${names}`, code: "custom" });
    return issues;
  }
  const models = provider?.models ?? config.agentModels;
  const cap = provider?.maxTokens ?? config.agentMaxTokens;
  if (settings.model !== undefined && !Object.hasOwn(models, settings.model)) {
    issues.push({ path: `${at}.model`, message: `must be one of the models this server allows: ${Object.keys(models).join(", ")}`, code: "custom" });
  }
  if (settings.maxTokens !== undefined && settings.maxTokens > cap) {
    issues.push({ path: `${at}.maxTokens`, message: `must be at most ${cap} on this server`, code: "custom" });
  }
  return issues;
}

/** Refuses (400 BAD_REQUEST, before anything is written) agent settings this server does not allow. */
export function checkAgentSettings(...entries: [settings: TAgentSettings | null | undefined, at: string][]): void {
  const { config } = runtime();
  const issues = entries.flatMap(([settings, at]) => agentSettingsIssues(settings, at, config));
  if (issues.length) throw badRequest(`Agent settings not allowed on this server: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
}

/** The providers and models agent settings may name (names and prices only: never a URL or a key). */
export function configuredProviders(config: Pick<Config, "agentProvider" | "agentProviders" | "agentModels" | "agentMaxTokens">) {
  const local = { name: "local", kind: "local" as const, default: config.agentProvider === "local", defaultModel: null, maxTokens: config.agentMaxTokens, models: [] as { name: string; inPerMTok: number; outPerMTok: number }[] };
  return [
    local,
    ...config.agentProviders.map((p) => ({
      name: p.name,
      kind: p.kind,
      default: config.agentProvider === p.name,
      defaultModel: p.defaultModel,
      maxTokens: p.maxTokens,
      models: Object.entries(p.models).map(([name, price]) => ({ name, inPerMTok: price.inPerMTok, outPerMTok: price.outPerMTok })),
    })),
  ];
}
