import type { TAgentSettings } from "../../lib/schemas/agent.ts";
import type { Config } from "../config.ts";
import { badRequest, type Issue } from "../http/errors.ts";
import { runtime } from "../runtime.ts";

// What agent settings may ask for on this server (issue 9 A12): a model of the allow-list
// (AGENT_MODELS) and at most AGENT_MAX_TOKENS. Checked when settings are written (400, nothing
// changes) and again when a turn starts (the OpenAI provider refuses a model no longer allowed).

/** The problems of `settings` under this server's policy; `at` is where they sit in the input (`body.agentSettings`). */
export function agentSettingsIssues(settings: TAgentSettings | null | undefined, at: string, config: Pick<Config, "agentModels" | "agentMaxTokens">): Issue[] {
  if (!settings) return [];
  const issues: Issue[] = [];
  if (settings.model !== undefined && !Object.hasOwn(config.agentModels, settings.model)) {
    issues.push({ path: `${at}.model`, message: `must be one of the models this server allows: ${Object.keys(config.agentModels).join(", ")}`, code: "custom" });
  }
  if (settings.maxTokens !== undefined && settings.maxTokens > config.agentMaxTokens) {
    issues.push({ path: `${at}.maxTokens`, message: `must be at most ${config.agentMaxTokens} on this server`, code: "custom" });
  }
  return issues;
}

/** Refuses (400 BAD_REQUEST, before anything is written) agent settings this server does not allow. */
export function checkAgentSettings(...entries: [settings: TAgentSettings | null | undefined, at: string][]): void {
  const { config } = runtime();
  const issues = entries.flatMap(([settings, at]) => agentSettingsIssues(settings, at, config));
  if (issues.length) throw badRequest(`Agent settings not allowed on this server: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
}
