import { z } from "zod";

// Agent settings: per user default (per project) and per todo (CONVENTIONS.md "Operating the service").
export const ZAgentProvider = z.enum(["local", "openai"]);

export const ZAgentSettings = z
  .object({
    provider: ZAgentProvider.optional().describe("local (built-in, offline) or openai (any OpenAI-compatible endpoint)"),
    model: z.string().trim().min(1).max(200).optional(),
    systemPrompt: z.string().max(20_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(200_000).optional(),
    agentSettingsId: z.string().trim().min(1).max(128).optional().describe("A named agent-settings preset; todo_list can filter by it"),
  })
  .meta({ id: "AgentSettings" });

export type TAgentSettings = z.infer<typeof ZAgentSettings>;
