// Test support: scripted AI SDK models (the SDK's MockLanguageModelV3) for the runner's tests.
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart, LanguageModelV3Usage } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import type { AgentProvider } from "../provider.ts";

export type { MockLanguageModelV3 };
import { turnOf } from "../providers/local-model.ts";

export const usageOf = (tokensIn: number, tokensOut: number): LanguageModelV3Usage => ({
  inputTokens: { total: tokensIn, noCache: tokensIn, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: tokensOut, text: tokensOut, reasoning: undefined },
});

/** A model step as the script gives it: text pieces, then tool calls (or an error part after some pieces). */
export type ScriptedStep = { text?: string[]; toolCalls?: { toolName: string; input: unknown }[]; failAfter?: number; usage?: [number, number] };

/** Streams `parts` with `stepMs` before each, stopping (as a model does) when the call is aborted. */
export function partsStream(parts: LanguageModelV3StreamPart[], stepMs: number, signal: AbortSignal | undefined): ReadableStream<LanguageModelV3StreamPart> {
  let i = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(c) {
      if (i >= parts.length) return c.close();
      if (stepMs > 0 && parts[i]!.type === "text-delta") await new Promise((r) => setTimeout(r, stepMs));
      if (signal?.aborted) return c.error(signal.reason);
      c.enqueue(parts[i++]!);
    },
  });
}

/** The parts of one scripted step. */
export function stepParts(step: ScriptedStep, callIndex: number): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  const text = step.text ?? [];
  if (text.length) parts.push({ type: "text-start", id: "t" });
  for (const [k, delta] of text.entries()) {
    if (step.failAfter !== undefined && k >= step.failAfter) {
      parts.push({ type: "error", error: new Error("Model endpoint answered 500: overloaded") });
      return parts;
    }
    parts.push({ type: "text-delta", id: "t", delta });
  }
  if (text.length) parts.push({ type: "text-end", id: "t" });
  for (const [k, call] of (step.toolCalls ?? []).entries()) {
    parts.push({ type: "tool-call", toolCallId: `call-${callIndex}-${k}`, toolName: call.toolName, input: JSON.stringify(call.input) });
  }
  const [tokensIn, tokensOut] = step.usage ?? [11, 22];
  parts.push({ type: "finish", finishReason: { unified: step.toolCalls?.length ? "tool-calls" : "stop", raw: undefined }, usage: usageOf(tokensIn, tokensOut) });
  return parts;
}

/**
 * A provider over a scripted model: each model call takes the next step of `steps` (the last one
 * again when they run out). `seen` collects each call's options (its prompt, its tools).
 */
export function scriptedProvider(
  steps: ScriptedStep[] | ((options: LanguageModelV3CallOptions, call: number) => ScriptedStep),
  opts: { stepMs?: number; tools?: boolean; seen?: LanguageModelV3CallOptions[]; name?: string; contextWindow?: number; summary?: (options: LanguageModelV3CallOptions) => string } = {},
): AgentProvider {
  let calls = 0;
  const model = new MockLanguageModelV3({
    // Not streamed: what the runner asks for a context summary.
    doGenerate: async (options) => ({
      content: [{ type: "text", text: opts.summary?.(options) ?? "A summary." }],
      finishReason: { unified: "stop", raw: undefined },
      usage: usageOf(100, 10),
      warnings: [],
    }),
    doStream: async (options) => {
      opts.seen?.push(options);
      const call = calls++;
      let step = typeof steps === "function" ? steps(options, call) : steps[Math.min(call, steps.length - 1)]!;
      // A resumed reply (the partial text, then CONTINUE_PROMPT): only the pieces after the partial.
      const { resumeFrom } = turnOf(options.prompt);
      if (resumeFrom && step.text) {
        const from = step.text.findIndex((_, k) => step.text!.slice(0, k).join("") === resumeFrom);
        step = { ...step, text: step.text.slice(Math.max(from, 0)) };
      }
      return { stream: partsStream(stepParts(step, call), opts.stepMs ?? 0, options.abortSignal) };
    },
  });
  return {
    name: opts.name ?? "fake",
    modelFor: () => ({ model, modelId: "fake-model", tools: opts.tools ?? false, contextWindow: opts.contextWindow }),
    blocksFor: () => [],
    costCents: (usage) => usage.tokensOut,
    describeError: (err) => (err instanceof Error ? err.message : String(err)),
  };
}
