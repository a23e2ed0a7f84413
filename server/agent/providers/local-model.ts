import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart, LanguageModelV3Usage } from "@ai-sdk/provider";
import { chunks, countTokens, planReply } from "../local-reply.ts";
import { CONTINUE_PROMPT } from "../provider.ts";

// AGENT_PROVIDER=local as an AI SDK language model (specification v3), so the runner drives it like
// any other: a deterministic reply over the user messages of the turn, streamed a few words per
// step with `stepMs` between steps. Deterministic, so a resumed turn (the partial reply followed by
// CONTINUE_PROMPT) continues exactly where it stopped.

/** Waits `ms`, or less when aborted; the abort listener goes away with the wait. */
const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });

const textOf = (content: LanguageModelV3Prompt[number]["content"]): string =>
  typeof content === "string" ? content : content.map((p) => (p.type === "text" ? p.text : "")).join("");

/** What the turn answers: the user messages since the last assistant reply, and the partial reply to continue. */
export function turnOf(prompt: LanguageModelV3Prompt): { input: string[]; resumeFrom: string } {
  let messages = prompt;
  let resumeFrom = "";
  const last = prompt.at(-1);
  const before = prompt.at(-2);
  if (last?.role === "user" && textOf(last.content) === CONTINUE_PROMPT && before?.role === "assistant") {
    resumeFrom = textOf(before.content);
    messages = prompt.slice(0, -2);
  }
  const input: string[] = [];
  for (const m of [...messages].reverse()) {
    if (m.role === "assistant") break;
    if (m.role === "user") input.unshift(textOf(m.content));
  }
  return { input, resumeFrom };
}

const usageOf = (tokensIn: number, tokensOut: number): LanguageModelV3Usage => ({
  inputTokens: { total: tokensIn, noCache: tokensIn, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: tokensOut, text: tokensOut, reasoning: undefined },
});

export class LocalLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = "local";
  readonly modelId = "local";
  readonly supportedUrls = {};

  constructor(private readonly stepMs: number) {}

  async doGenerate(options: LanguageModelV3CallOptions) {
    const { input, resumeFrom } = turnOf(options.prompt);
    const reply = await planReply(input);
    const text = reply.text.startsWith(resumeFrom) ? reply.text.slice(resumeFrom.length) : reply.text;
    return {
      content: [{ type: "text" as const, text }],
      finishReason: { unified: "stop" as const, raw: undefined },
      usage: usageOf(countTokens(input.join("\n")), countTokens(reply.text)),
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions) {
    const { input, resumeFrom } = turnOf(options.prompt);
    const { stepMs } = this;
    const signal = options.abortSignal;
    let pieces: string[] = [];
    let replyText = "";
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      async start(controller) {
        controller.enqueue({ type: "stream-start", warnings: [] });
        // Planned inside the stream: the scan of the user's messages yields to the event loop.
        const reply = await planReply(input);
        if (!reply.text.startsWith(resumeFrom)) {
          controller.enqueue({ type: "error", error: new Error("cannot resume: the reply written so far differs from this agent's reply") });
          controller.close();
          return;
        }
        replyText = reply.text;
        pieces = chunks(reply.text.slice(resumeFrom.length));
        controller.enqueue({ type: "text-start", id: "0" });
      },
      async pull(controller) {
        const piece = pieces.shift();
        if (piece === undefined) {
          controller.enqueue({ type: "text-end", id: "0" });
          controller.enqueue({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usageOf(countTokens(input.join("\n")), countTokens(replyText)) });
          controller.close();
          return;
        }
        await sleep(stepMs, signal);
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        controller.enqueue({ type: "text-delta", id: "0", delta: piece });
      },
    });
    return { stream };
  }
}
