import type { TAgentSettings } from "../../../lib/schemas/agent.ts";
// AGENT_PROVIDER=openai: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
// llama.cpp, LiteLLM, ...), streamed with Server-Sent Events and parsed here (no SDK).
//
// Errors are plain-language `ModelEndpointError`s (an Error) that never contain the API key:
//   non-2xx            Model endpoint answered <status>: <the body's error message, at most 300 chars>
//   connection failed  Model endpoint unreachable at <baseUrl>: <cause>
//   stream broke off   Model endpoint stream broke off: <cause>
//   error in stream    Model endpoint reported an error: <message>
//   empty stream       Model endpoint stream ended without a reply (no content and no [DONE])
//   silent endpoint    Model endpoint sent nothing for <n> s (while waiting for its answer or its next piece)
// An abort (the runner's pause or cancel) rejects the pending step with the signal's reason (an
// AbortError unless the runner gave another) and releases the connection.
import { countTokens, listItems } from "../local-reply.ts";
import { checklistText } from "../../../lib/list-items.ts";
import type { AgentProvider, BlockDraft, ChatMessage, TurnRequest, TurnStream, TurnUsage } from "../provider.ts";

/** The user message that asks the model to continue a reply interrupted by a pause. */
export const CONTINUE_PROMPT = "Continue exactly where you stopped, without repeating anything.";

export type OpenAIProviderOptions = {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1` (a trailing slash is fine). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; no Authorization header without it. */
  apiKey?: string;
  /** The model when the todo's settings name none. */
  model: string;
  /**
   * How long the endpoint may stay silent: before its response headers and between two reads of
   * the stream (time the runner spends on a piece does not count). 0 turns it off. Default 60 s.
   */
  idleTimeoutMs?: number;
  /** Replaces the global fetch (tests). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * The models a turn may use, with their prices (AGENT_MODELS): a turn on any other is refused
   * before anything is sent. Absent (tests, tools): any model, costed by DEFAULT_PRICES.
   */
  models?: ModelAllowList;
  /** The most tokens a reply may take (AGENT_MAX_TOKENS): sent as `max_tokens` on every turn, a larger setting is lowered to it. */
  maxTokens?: number;
};

export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** Aborts its signal when `touch` is not called again within `ms` while armed. */
class IdleTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  expired = false;
  constructor(private readonly ms: number) {}
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  /** Starts (or restarts) the wait for the endpoint. */
  arm(): void {
    this.disarm();
    if (this.ms <= 0) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error("idle timeout"));
    }, this.ms);
  }
  /** The endpoint answered; time from here on is the consumer's. */
  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** A readable failure of the model endpoint; `status` is the HTTP status when it answered with one. */
export class ModelEndpointError extends Error {
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    this.name = "ModelEndpointError";
    this.status = status;
  }
}

// The price table moved to ../pricing.ts; re-exported here for existing imports.
export { DEFAULT_PRICES, costCents, type ModelPrice } from "../pricing.ts";
import { DEFAULT_PRICES, costCents, type ModelAllowList } from "../pricing.ts";

export class OpenAIProvider implements AgentProvider {
  readonly name = "openai";
  private readonly endpoint: string;
  /** The base URL as errors show it: no credentials, no trailing slash. */
  private readonly shownBaseUrl: string;
  private readonly apiKey?: string;
  /** The model used when the todo's settings name none (for costCents: `settings.model ?? provider.model`). */
  readonly model: string;
  private readonly fetchImpl: (input: string, init: RequestInit) => Promise<Response>;
  private readonly idleTimeoutMs: number;
  private readonly models?: ModelAllowList;
  private readonly maxTokensCap?: number;

  constructor(opts: OpenAIProviderOptions) {
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new Error(`OpenAIProvider: baseUrl must be an absolute http(s) URL such as https://api.openai.com/v1`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`OpenAIProvider: baseUrl must be an absolute http(s) URL such as https://api.openai.com/v1`);
    url.pathname = `${url.pathname.replace(/\/+$/, "")}/chat/completions`;
    this.endpoint = url.toString();
    const shown = new URL(opts.baseUrl);
    shown.username = "";
    shown.password = "";
    shown.search = "";
    this.shownBaseUrl = shown.toString().replace(/\/+$/, "");
    this.apiKey = opts.apiKey || undefined;
    this.model = opts.model;
    this.fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
    this.idleTimeoutMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.models = opts.models;
    this.maxTokensCap = opts.maxTokens;
  }

  costCents(usage: TurnUsage, settings: TAgentSettings): number {
    return costCents(settings.model ?? this.model, usage, this.models ?? DEFAULT_PRICES);
  }

  /**
   * The model of a turn, checked against the allow-list before the operator's key is used: a model
   * chosen before the list changed (or the server default left out of it) ends the turn in ERROR.
   */
  private modelFor(settings: TAgentSettings): string {
    const model = settings.model ?? this.model;
    if (this.models && !Object.hasOwn(this.models, model)) {
      throw new Error(`Model "${model}" is not allowed on this server (allowed: ${Object.keys(this.models).join(", ")}); pick one of those in the agent settings`);
    }
    return model;
  }

  stream(request: TurnRequest, signal: AbortSignal): TurnStream {
    const resumeFrom = request.resumeFrom.trim() ? request.resumeFrom : "";
    const messages: ChatMessage[] = [
      ...(request.settings.systemPrompt?.trim() ? [{ role: "system" as const, content: request.settings.systemPrompt }] : []),
      ...request.messages,
      ...(resumeFrom
        ? [
            { role: "assistant" as const, content: resumeFrom },
            { role: "user" as const, content: CONTINUE_PROMPT },
          ]
        : []),
    ];
    const { temperature } = request.settings;
    const model = this.modelFor(request.settings);
    const cap = this.maxTokensCap;
    const maxTokens = cap === undefined ? request.settings.maxTokens : Math.min(request.settings.maxTokens ?? cap, cap);
    const body = {
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    };

    let reported: TurnUsage | null = null;
    let ended = false;
    let written = "";
    const pieces = this.pieces(body, signal, (usage) => (reported = usage));
    async function* deltas(): AsyncGenerator<string> {
      try {
        const skip = new RepeatedPrefix(resumeFrom);
        for await (const piece of pieces) {
          const text = skip.push(piece);
          if (!text) continue;
          written += text;
          yield text;
        }
        const rest = skip.end();
        if (rest) {
          written += rest;
          yield rest;
        }
      } finally {
        ended = true;
      }
    }
    return {
      deltas: deltas(),
      usage: () => {
        if (!ended) return null;
        return reported ?? { tokensIn: countTokens(messages.map((m) => m.content).join("\n")), tokensOut: countTokens(written) };
      },
    };
  }

  blocksFor(reply: string, userMessages: string[]): BlockDraft[] {
    let items = checklist(reply);
    if (items.length === 0) items = checklist(userMessages.at(-1) ?? "");
    return items.map((text) => ({ type: "checklist_item", actionable: true, content: { text } }));
  }

  /** The model's content pieces as they arrive (empty ones dropped). */
  private async *pieces(body: object, signal: AbortSignal, onUsage: (usage: TurnUsage) => void): AsyncGenerator<string> {
    const idle = new IdleTimer(this.idleTimeoutMs);
    try {
      yield* this.piecesWithin(body, signal, idle, onUsage);
    } finally {
      idle.disarm();
    }
  }

  private async *piecesWithin(body: object, signal: AbortSignal, idle: IdleTimer, onUsage: (usage: TurnUsage) => void): AsyncGenerator<string> {
    const response = await this.post(body, signal, idle);
    if (!response.ok) throw await this.httpError(response, signal, idle);
    const type = response.headers.get("content-type") ?? "";

    // A server that ignores `stream: true` and answers with one JSON completion.
    if (/\bjson\b/i.test(type)) {
      const json = await this.readText(response, signal, idle).then(parseJson);
      if (hasError(json)) throw this.fail(`Model endpoint reported an error: ${this.clip(errorMessage(json) ?? "unknown error")}`);
      const usage = usageOf(json);
      if (usage) onUsage(usage);
      const content = (json as { choices?: { message?: { content?: unknown } }[] } | undefined)?.choices?.[0]?.message?.content;
      if (typeof content !== "string" || !content) throw this.fail("Model endpoint answered without a reply");
      yield content;
      return;
    }
    if (/text\/html/i.test(type)) throw this.fail(`Model endpoint answered with a web page, not an event stream: is ${this.shownBaseUrl} the API root (…/v1)?`);
    if (!response.body) throw this.fail("Model endpoint stream ended without a reply (no content and no [DONE])");

    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    let sawDone = false;
    let sawContent = false;
    let readToEnd = false;
    try {
      while (!sawDone && !readToEnd) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        idle.arm();
        try {
          chunk = await reader.read();
        } catch (err) {
          signal.throwIfAborted();
          throw this.idleOr(idle, `Model endpoint stream broke off: ${describeCause(err)}`);
        } finally {
          idle.disarm();
        }
        signal.throwIfAborted();
        readToEnd = chunk.done;
        const events = chunk.done ? parser.push(decoder.decode(), true) : parser.push(decoder.decode(chunk.value, { stream: true }));
        for (const event of events) {
          if (event.data.trim() === "[DONE]") {
            sawDone = true;
            break;
          }
          const piece = this.contentOf(event, onUsage);
          if (!piece) continue;
          sawContent = true;
          yield piece;
          signal.throwIfAborted();
        }
      }
    } finally {
      // Stopped before the body's end ([DONE], abort, error, or the consumer left): drop the connection.
      if (!readToEnd) reader.cancel().catch(() => undefined);
    }
    if (!sawDone && !sawContent) throw this.fail("Model endpoint stream ended without a reply (no content and no [DONE])");
  }

  /** The request; the fetch (and so the body's stream) also ends when the endpoint stays silent too long. */
  private async post(body: object, signal: AbortSignal, idle: IdleTimer): Promise<Response> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream, application/json" };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    idle.arm();
    try {
      return await this.fetchImpl(this.endpoint, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.any([signal, idle.signal]) });
    } catch (err) {
      signal.throwIfAborted();
      throw this.idleOr(idle, `Model endpoint unreachable at ${this.shownBaseUrl}: ${describeCause(err)}`);
    } finally {
      idle.disarm();
    }
  }

  /** The silence error when the idle timer ended the request, else `message`. */
  private idleOr(idle: IdleTimer, message: string): ModelEndpointError {
    if (!idle.expired) return this.fail(message);
    const seconds = Math.round(this.idleTimeoutMs / 100) / 10;
    return this.fail(`Model endpoint sent nothing for ${seconds} s (AGENT_IDLE_TIMEOUT_MS); the turn was stopped`);
  }

  private async httpError(response: Response, signal: AbortSignal, idle: IdleTimer): Promise<ModelEndpointError> {
    let text = "";
    try {
      text = await this.readText(response, signal, idle);
    } catch (err) {
      signal.throwIfAborted();
      if (!(err instanceof ModelEndpointError)) throw err;
    }
    const fromBody = errorMessage(parseJson(text)) ?? (/^text\/plain/i.test(response.headers.get("content-type") ?? "") ? text : "");
    const message = this.clip(fromBody) || response.statusText || "no details";
    return this.fail(`Model endpoint answered ${response.status}: ${message}`, response.status);
  }

  private async readText(response: Response, signal: AbortSignal, idle: IdleTimer): Promise<string> {
    idle.arm();
    try {
      return await response.text();
    } catch (err) {
      signal.throwIfAborted();
      throw this.idleOr(idle, `Model endpoint stream broke off: ${describeCause(err)}`);
    } finally {
      idle.disarm();
    }
  }

  /** The content piece of one event; throws on an error event. */
  private contentOf(event: SseEvent, onUsage: (usage: TurnUsage) => void): string {
    const json = parseJson(event.data);
    if (event.event === "error" || hasError(json)) {
      throw this.fail(`Model endpoint reported an error: ${this.clip(errorMessage(json) ?? event.data) || "unknown error"}`);
    }
    if (json === undefined) throw this.fail(`Model endpoint sent an unreadable event: ${this.clip(event.data, 100)}`);
    const usage = usageOf(json);
    if (usage) onUsage(usage);
    const content = (json as { choices?: { delta?: { content?: unknown } }[] } | null)?.choices?.[0]?.delta?.content;
    return typeof content === "string" ? content : "";
  }

  /** Whitespace collapsed, the API key removed, at most `max` characters. */
  private clip(text: string, max = 300): string {
    const clean = this.redact(text).replace(/\s+/g, " ").trim();
    return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
  }

  private redact(text: string): string {
    return this.apiKey ? text.replaceAll(this.apiKey, "[redacted]") : text;
  }

  private fail(message: string, status?: number): ModelEndpointError {
    return new ModelEndpointError(this.redact(message), status);
  }
}

// ---- Server-Sent Events ----

type SseEvent = { event: string; data: string };

/** An incremental SSE parser (the WHATWG rules): LF, CR or CRLF line ends, comments, multi-line data. */
class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";

  /** Feeds decoded text; `final` flushes a last line and event that lack their terminator. */
  push(text: string, final = false): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    let pos = 0;
    while (pos < this.buffer.length) {
      const lf = this.buffer.indexOf("\n", pos);
      const cr = this.buffer.indexOf("\r", pos);
      if (lf === -1 && cr === -1) break;
      let end: number;
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        end = lf;
        next = lf + 1;
      } else {
        if (cr === this.buffer.length - 1 && !final) break; // a CR whose LF may come in the next chunk
        end = cr;
        next = this.buffer[cr + 1] === "\n" ? cr + 2 : cr + 1;
      }
      this.line(this.buffer.slice(pos, end), out);
      pos = next;
    }
    this.buffer = this.buffer.slice(pos);
    if (final) {
      if (this.buffer) this.line(this.buffer, out);
      this.buffer = "";
      this.line("", out);
    }
    return out;
  }

  private line(line: string, out: SseEvent[]) {
    if (line === "") {
      if (this.data.length) out.push({ event: this.event || "message", data: this.data.join("\n") });
      this.data = [];
      this.event = "";
      return;
    }
    if (line.startsWith(":")) return; // a comment, e.g. a keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }
}

// ---- helpers ----

/**
 * Resuming: the model is asked not to repeat the partial reply, but some do. While the output so
 * far could still be the partial repeated, it is held back; a full repeat is dropped.
 */
class RepeatedPrefix {
  private held = "";
  private decided: boolean;
  private readonly partial: string;

  constructor(partial: string) {
    this.partial = partial.trim();
    this.decided = !this.partial;
  }

  push(piece: string): string {
    if (this.decided) return piece;
    this.held += piece;
    const candidate = this.held.trimStart();
    if (candidate.length < this.partial.length) {
      if (this.partial.startsWith(candidate)) return "";
      return this.release(this.held);
    }
    return this.release(candidate.startsWith(this.partial) ? candidate.slice(this.partial.length) : this.held);
  }

  end(): string {
    return this.decided ? "" : this.release(this.held);
  }

  private release(text: string): string {
    this.decided = true;
    this.held = "";
    return text;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasError(json: unknown): boolean {
  return isObject(json) && json.error !== undefined && json.error !== null && json.error !== false;
}

/** The message of an error body: OpenAI's `{error: {message}}`, or `{error: "…"}`, `{message}`, `{detail}`. */
function errorMessage(json: unknown): string | undefined {
  if (typeof json === "string") return json;
  if (!isObject(json)) return undefined;
  const { error } = json;
  if (typeof error === "string") return error;
  if (isObject(error) && typeof error.message === "string") return error.message;
  if (typeof json.message === "string") return json.message;
  if (typeof json.detail === "string") return json.detail;
  return undefined;
}

function usageOf(json: unknown): TurnUsage | null {
  if (!isObject(json) || !isObject(json.usage)) return null;
  const { prompt_tokens: tokensIn, completion_tokens: tokensOut } = json.usage;
  if (typeof tokensIn !== "number" || typeof tokensOut !== "number") return null;
  return { tokensIn, tokensOut };
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
