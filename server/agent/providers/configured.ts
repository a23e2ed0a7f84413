// A model provider the operator configured (AGENT_PROVIDERS, or OPENAI_BASE_URL as "openai"),
// through the AI SDK's provider packages: @ai-sdk/openai, @ai-sdk/openai-compatible (Ollama, vLLM,
// LM Studio, LiteLLM, llama.cpp), @ai-sdk/anthropic. Its base URL and key come from the server's
// configuration only; agent settings name the provider and a model of its allow-list.
//
// Failures read (and never contain the key):
//   non-2xx            Model endpoint answered <status>: <the body's error message, at most 300 chars>
//   connection failed  Model endpoint unreachable at <baseUrl>: <cause>
//   error in stream    Model endpoint reported an error: <message>
//   silent endpoint    Model endpoint sent nothing for <n> s (AGENT_IDLE_TIMEOUT_MS); the turn was stopped
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, type LanguageModelV3 } from "@ai-sdk/provider";
import { RetryError } from "ai";
import { checklistText } from "../../../lib/list-items.ts";
import type { TAgentSettings } from "../../../lib/schemas/agent.ts";
import type { AgentProviderConfig } from "../../config.ts";
import { costCents } from "../../services/billing/prices.ts";
import { listItems } from "../local-reply.ts";
import type { AgentProvider, BlockDraft, ModelChoice, TurnUsage } from "../provider.ts";

/** Thrown (as the abort reason) when the endpoint stayed silent longer than the idle timeout. */
export class IdleTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`Model endpoint sent nothing for ${Math.round(ms / 100) / 10} s (AGENT_IDLE_TIMEOUT_MS); the turn was stopped`);
    this.name = "IdleTimeoutError";
  }
}

export type ConfiguredProviderOptions = {
  /** Replaces the global fetch (tests). */
  fetch?: typeof fetch;
};

export class ConfiguredProvider implements AgentProvider {
  readonly name: string;
  private readonly factory: (modelId: string) => LanguageModelV3;
  private readonly shownBaseUrl: string;
  private readonly models = new Map<string, LanguageModelV3>();

  constructor(
    private readonly config: AgentProviderConfig,
    opts: ConfiguredProviderOptions = {},
  ) {
    this.name = config.name;
    const { baseUrl, apiKey } = config;
    const common = { ...(baseUrl ? { baseURL: baseUrl } : {}), ...(apiKey ? { apiKey } : {}), ...(opts.fetch ? { fetch: opts.fetch } : {}) };
    if (config.kind === "openai") {
      const p = createOpenAI(common);
      this.factory = (id) => p(id);
    } else if (config.kind === "anthropic") {
      const p = createAnthropic(common);
      this.factory = (id) => p(id);
    } else {
      const p = createOpenAICompatible({ name: config.name, baseURL: baseUrl!, ...(apiKey ? { apiKey } : {}), ...(opts.fetch ? { fetch: opts.fetch } : {}), includeUsage: true });
      this.factory = (id) => p.chatModel(id);
    }
    let shown = config.kind === "anthropic" ? "https://api.anthropic.com/v1" : "https://api.openai.com/v1";
    if (baseUrl) {
      const url = new URL(baseUrl);
      url.username = "";
      url.password = "";
      url.search = "";
      shown = url.toString().replace(/\/+$/, "");
    }
    this.shownBaseUrl = shown;
  }

  /** The model of a turn, checked against the allow-list before the operator's key is used. */
  modelFor(settings: TAgentSettings): ModelChoice {
    const modelId = settings.model ?? this.config.defaultModel;
    if (!Object.hasOwn(this.config.models, modelId)) {
      throw new Error(`Model "${modelId}" is not allowed on this server (allowed: ${Object.keys(this.config.models).join(", ")}); pick one of those in the agent settings`);
    }
    let model = this.models.get(modelId);
    if (!model) {
      model = this.factory(modelId);
      this.models.set(modelId, model);
    }
    const cap = this.config.maxTokens;
    return { model, modelId, maxOutputTokens: Math.min(settings.maxTokens ?? cap, cap), tools: true, contextWindow: this.config.contextWindow };
  }

  costCents(usage: TurnUsage, modelId: string): number {
    return costCents(modelId, usage, this.config.models);
  }

  describeError(err: unknown): string {
    return this.redact(this.describe(err));
  }

  private describe(err: unknown): string {
    if (RetryError.isInstance(err) && err.lastError !== undefined) return this.describe(err.lastError);
    if (err instanceof IdleTimeoutError) return err.message;
    if (APICallError.isInstance(err)) {
      if (err.statusCode !== undefined) return `Model endpoint answered ${err.statusCode}: ${clip(messageOf(err.data) ?? err.message) || "no details"}`;
      return `Model endpoint unreachable at ${this.shownBaseUrl}: ${describeCause(err.cause ?? err)}`;
    }
    const inStream = messageOf(err);
    if (inStream !== undefined && !(err instanceof Error)) return `Model endpoint reported an error: ${clip(inStream) || "unknown error"}`;
    return clip(err instanceof Error ? err.message : String(err), 1000);
  }

  private redact(text: string): string {
    return this.config.apiKey ? text.replaceAll(this.config.apiKey, "[redacted]") : text;
  }

  blocksFor(reply: string, userMessages: string[]): BlockDraft[] {
    let items = checklist(reply);
    if (items.length === 0) items = checklist(userMessages.at(-1) ?? "");
    return items.map((text) => ({ type: "checklist_item", actionable: true, content: { text } }));
  }
}

/** Whitespace collapsed, at most `max` characters. */
function clip(text: string, max = 300): string {
  const clean = text.replace(/\s+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The message of an error body or event: `{error: {message}}`, `{error: "…"}`, `{message}`, `{detail}`, or a string. */
function messageOf(json: unknown): string | undefined {
  if (typeof json === "string") return json;
  if (!isObject(json)) return undefined;
  const { error } = json;
  if (typeof error === "string") return error;
  if (isObject(error) && typeof error.message === "string") return error.message;
  if (typeof json.message === "string") return json.message;
  if (typeof json.detail === "string") return json.detail;
  return undefined;
}

/** Why fetch failed, in words: the underlying cause (`connect ECONNREFUSED …`) rather than "fetch failed". */
function describeCause(err: unknown): string {
  let cause: unknown = err;
  for (let depth = 0; depth < 4 && cause instanceof Error && cause.cause !== undefined; depth++) cause = cause.cause;
  if (cause instanceof AggregateError && cause.errors.length) {
    const first: unknown = cause.errors[0];
    if (first instanceof Error && first.message) return first.message;
  }
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return cause.message || (typeof code === "string" ? code : "") || cause.name;
  }
  return String(cause);
}

/** Checklist items from list lines, outside fenced code; a markdown checkbox (`- [ ] x`) is dropped from the text. */
function checklist(text: string): string[] {
  let fenced = false;
  const prose = text
    .split(/\r?\n/)
    .filter((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return false;
      }
      return !fenced;
    })
    .join("\n");
  return listItems(prose)
    .map(checklistText)
    .filter(Boolean);
}
