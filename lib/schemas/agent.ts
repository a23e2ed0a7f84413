import { z } from "zod";

// Agent settings: per user default (per project) and per todo (CONVENTIONS.md "Operating the service").
// A provider is named, never addressed: its URL and key live in the server's configuration
// (AGENT_PROVIDERS), so a name that looks like a URL is refused here and nothing connects.
export const ZAgentProvider = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, "must be the name of a provider this server is configured with (letters, digits, '_' or '-'), not a URL");

export const ZAgentSettings = z
  .object({
    provider: ZAgentProvider.optional().describe("A provider configured on this server by name: local (built-in, offline) or one of agent_listProviders"),
    model: z.string().trim().min(1).max(200).optional(),
    systemPrompt: z.string().max(20_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(200_000).optional(),
    agentSettingsId: z.string().trim().min(1).max(128).optional().describe("A named agent-settings preset; todo_list can filter by it"),
  })
  // Unknown fields (a `baseUrl`, an `apiKey`) are refused, not dropped: settings cannot address a model.
  .strict()
  .meta({ id: "AgentSettings" });

export type TAgentSettings = z.infer<typeof ZAgentSettings>;

/** A provider agent settings may name, with its models (names and prices only: never its URL or key). */
export const ZAgentProviderInfo = z
  .object({
    name: z.string().describe("What agent settings put in `provider`"),
    kind: z.enum(["local", "openai", "openai-compatible", "anthropic"]),
    default: z.boolean().describe("true for the provider of settings that name none"),
    defaultModel: z.string().nullable().describe("The model of settings that name none (null for the built-in agent)"),
    maxTokens: z.number().int().describe("The most tokens a reply may take on it"),
    models: z.array(z.object({ name: z.string(), inPerMTok: z.number().describe("cents per million input tokens"), outPerMTok: z.number().describe("cents per million output tokens") })),
  })
  .meta({ id: "AgentProviderInfo" });
export const ZAgentProviderList = z.object({ providers: z.array(ZAgentProviderInfo) }).meta({ id: "AgentProviderList" });
export type TAgentProviderInfo = z.infer<typeof ZAgentProviderInfo>;

/**
 * The agent settings a new todo takes when its request names none: the first that exists of the
 * creator's own mapping for the project, the project's agent defaults, and the creator's default
 * agent. The server applies it (todoDefaults); the new-todo form starts from it when a model is
 * picked, so the defaults' other settings (system prompt, temperature …) are kept.
 */
export function newTodoAgentSettings(from: { mapping: TAgentSettings | null; projectDefaults: TAgentSettings | null; userDefault: TAgentSettings | null }): TAgentSettings | null {
  return from.mapping ?? from.projectDefaults ?? from.userDefault ?? null;
}
