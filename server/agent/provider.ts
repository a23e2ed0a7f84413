import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { TAgentSettings } from "../../lib/schemas/agent.ts";
import type { TurnUsage } from "../services/billing/prices.ts";

// A model behind the agent runner, as an AI SDK language model. The runner owns the todo's state
// (leases, status checks between steps, the message row, events) and drives every provider through
// the SDK's streamText; a provider only says which model a turn uses, what it costs, and how its
// failures read.

export type { TurnUsage } from "../services/billing/prices.ts";

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type BlockDraft = { type: string; actionable: boolean; content: Record<string, unknown> };

/** The model of one turn. */
export type ModelChoice = {
  model: LanguageModelV3;
  /** The model's name as settings and usage records name it. */
  modelId: string;
  /** The most tokens the reply may take (the setting, at most the provider's cap). */
  maxOutputTokens?: number;
  /** Whether the turn offers the agent's tools (the built-in agent has no use for them). */
  tools: boolean;
  /** The model's context window in tokens: a longer history is summarised first (absent: never). */
  contextWindow?: number;
};

export interface AgentProvider {
  /** Its name in agent settings and usage records. */
  readonly name: string;
  /** The model for a turn with these settings; throws a readable Error (before anything connects) when the model is not allowed. */
  modelFor(settings: TAgentSettings): ModelChoice;
  /** Blocks for the finished reply, e.g. a checklist from a list (async when the work on user content is long enough to yield). */
  blocksFor(reply: string, userMessages: string[]): BlockDraft[] | Promise<BlockDraft[]>;
  /** What the usage cost, in cents, by billing's price of the model. */
  costCents(usage: TurnUsage, modelId: string): number;
  /** A readable reason for a failure of the model (never the key). */
  describeError(err: unknown): string;
}

/** The user message that asks the model to continue a reply interrupted by a pause. */
export const CONTINUE_PROMPT = "Continue exactly where you stopped, without repeating anything.";
