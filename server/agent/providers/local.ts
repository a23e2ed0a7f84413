import type { AgentProvider, BlockDraft, TurnRequest, TurnStream } from "../provider.ts";
import { chunks, countTokens, planReply } from "../local-reply.ts";

/** Waits `ms`, or less when aborted; the abort listener goes away with the wait. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });

/**
 * AGENT_PROVIDER=local: a deterministic reply over the user messages of the turn, streamed a few
 * words per step with `stepMs` between steps. Deterministic, so a resumed turn continues exactly.
 */
export class LocalProvider implements AgentProvider {
  readonly name = "local";
  constructor(private readonly stepMs: number) {}

  private turnInput(request: TurnRequest): string[] {
    // The user messages since the last assistant reply are what this turn answers.
    const out: string[] = [];
    for (const m of [...request.messages].reverse()) {
      if (m.role === "assistant") break;
      if (m.role === "user") out.unshift(m.content);
    }
    return out;
  }

  stream(request: TurnRequest, signal: AbortSignal): TurnStream {
    const input = this.turnInput(request);
    const stepMs = this.stepMs;
    let done = false;
    let replyText = "";
    async function* deltas() {
      // Planned inside the stream: the scan of the user's messages yields to the event loop.
      const reply = await planReply(input);
      if (!reply.text.startsWith(request.resumeFrom)) throw new Error("cannot resume: the reply written so far differs from this agent's reply");
      replyText = reply.text;
      const rest = reply.text.slice(request.resumeFrom.length);
      for (const piece of chunks(rest)) {
        await sleep(stepMs, signal);
        if (signal.aborted) return;
        yield piece;
      }
      done = true;
    }
    return {
      deltas: deltas(),
      usage: () => (done ? { tokensIn: countTokens(input.join("\n")), tokensOut: countTokens(replyText) } : null),
    };
  }

  /**
   * The built-in agent's price, so billing has something to charge without a model: one cent per
   * 100 words read and written, at least one cent a turn.
   */
  costCents(usage: { tokensIn: number; tokensOut: number }): number {
    return Math.max(1, Math.ceil((usage.tokensIn + usage.tokensOut) / 100));
  }

  async blocksFor(_reply: string, userMessages: string[]): Promise<BlockDraft[]> {
    return (await planReply(userMessages)).checklist.map((text) => ({ type: "checklist_item", actionable: true, content: { text } }));
  }
}
