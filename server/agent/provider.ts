import type { TAgentSettings } from "../../lib/schemas/agent.ts";

// A model behind the agent runner. The runner owns the todo's state (status checks between
// steps, the message row, events); a provider only turns a conversation into streamed text.

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type TurnRequest = {
  /** The conversation so far, oldest first (the context summary, when one is pending, comes first as a system message). */
  messages: ChatMessage[];
  settings: TAgentSettings;
  /** Text of this reply already written before a pause; the provider continues after it. */
  resumeFrom: string;
};

export type TurnUsage = { tokensIn: number; tokensOut: number };

export type TurnStream = {
  /** Pieces of the reply in order; each one is a step, between which the runner checks pause and cancel. */
  deltas: AsyncIterable<string>;
  /** Token counts once the stream ended (the provider's own when it reports them, else an estimate). */
  usage(): TurnUsage | null;
};

export type BlockDraft = { type: string; actionable: boolean; content: Record<string, unknown> };

export interface AgentProvider {
  readonly name: string;
  /** Starts streaming. Throws (or the iterator throws) with a readable reason when the model fails. */
  stream(request: TurnRequest, signal: AbortSignal): TurnStream;
  /** Blocks for the finished reply, e.g. a checklist from a list (async when the work on user content is long enough to yield). */
  blocksFor(reply: string, userMessages: string[]): BlockDraft[] | Promise<BlockDraft[]>;
  /** What the turn cost, in cents (absent: free). */
  costCents?(usage: TurnUsage, settings: TAgentSettings): number;
}
