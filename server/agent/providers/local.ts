import type { TAgentSettings } from "../../../lib/schemas/agent.ts";
import { localCostCents } from "../../services/billing/prices.ts";
import { planReply } from "../local-reply.ts";
import type { AgentProvider, BlockDraft, ModelChoice, TurnUsage } from "../provider.ts";
import { LocalLanguageModel } from "./local-model.ts";

/**
 * AGENT_PROVIDER=local, the offline default: LocalLanguageModel, and the checklist of the user's
 * list as the reply's blocks. Its settings' model is ignored (there is one).
 */
export class LocalProvider implements AgentProvider {
  readonly name = "local";
  private readonly model: LocalLanguageModel;
  constructor(stepMs: number) {
    this.model = new LocalLanguageModel(stepMs);
  }

  modelFor(_settings: TAgentSettings): ModelChoice {
    return { model: this.model, modelId: "local", tools: false };
  }

  costCents(usage: TurnUsage): number {
    return localCostCents(usage);
  }

  describeError(err: unknown): string {
    return err instanceof Error ? err.message : String(err);
  }

  async blocksFor(_reply: string, userMessages: string[]): Promise<BlockDraft[]> {
    return (await planReply(userMessages)).checklist.map((text) => ({ type: "checklist_item", actionable: true, content: { text } }));
  }
}
