// Test support: a small local stand-in for an OpenAI-compatible chat-completions endpoint
// (POST <url>/chat/completions with `stream: true`), for unit and e2e tests of the openai provider.
//
//   const standin = await startOpenAIStandin();
//   new OpenAIProvider({ baseUrl: standin.url, model: "gpt-4o-mini" })   // or OPENAI_BASE_URL=standin.url
//
// By default it answers deterministically: the words of the last user message, echoed a few words
// per SSE chunk (`delayMs` apart), then a usage chunk (when `stream_options.include_usage` is set)
// and `data: [DONE]`. When the request resumes an interrupted reply (an assistant message followed
// by CONTINUE_PROMPT), it echoes the message before and sends only what follows the partial text.
// `setScript` replaces that answer per request: an HTTP error, an error event, a cut stream, a slow
// stream, or raw bytes for SSE edge cases (see `StandinAnswer`). With `apiKey` set, requests without
// `Authorization: Bearer <apiKey>` get 401 — whose message quotes the key that was sent, so tests
// can check that the provider does not pass it on.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { listenLocal } from "./listen.ts";
import { CONTINUE_PROMPT } from "../agent/provider.ts";

export type ChatRequestBody = {
  model?: string;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  max_tokens?: number;
  [field: string]: unknown;
};

export type RecordedChatRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw request body. */
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: ChatRequestBody | undefined;
  /** Stream events (and raw writes) sent so far. */
  sent: number;
  /** Settles when the connection for this request is done: "completed" when the stand-in ended the answer, "interrupted" when the socket closed first (client abort, a cut, close()). */
  closed: Promise<"completed" | "interrupted">;
};

/** One SSE event: an object is sent as `data: <json>\n\n`; a string or bytes are written exactly as given. */
export type StandinEvent = Record<string, unknown> | string | Uint8Array;

export type StandinAnswer =
  /** A plain HTTP answer: an object body as JSON (e.g. `openAIError(...)`), a string as text/plain. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /**
   * A 200 event stream. `delayMs` (default: the stand-in's) passes before each event.
   * `end`: "done" (default) sends `data: [DONE]` and ends; "close" ends without [DONE];
   * "destroy" cuts the connection mid-response; "hang" keeps it open until the client leaves or close().
   */
  | { events: StandinEvent[]; delayMs?: number; end?: "done" | "close" | "destroy" | "hang" };

/** Returns the answer for a request, or undefined for the default echo. */
export type StandinScript = (request: RecordedChatRequest, index: number) => StandinAnswer | undefined;

export type OpenAIStandinOptions = {
  port?: number;
  host?: string;
  /** Pause before each streamed event (default 5 ms). */
  delayMs?: number;
  /** Words per content chunk of the default echo (default 2). */
  wordsPerChunk?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` or get 401. */
  apiKey?: string;
};

export type OpenAIStandin = {
  /** e.g. http://127.0.0.1:43123/v1 (no trailing slash). */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedChatRequest[];
  /** Answers later requests with `script` (null: back to the default echo). */
  setScript(script: StandinScript | null): void;
  /** Forgets recorded requests and the script. */
  reset(): void;
  /** Stops the server, ending every open stream and socket. */
  close(): Promise<void>;
};

// ---- building blocks for scripts ----

/** A `chat.completion.chunk` carrying `content` (and `finish_reason` when given). */
export function contentChunk(content: string, opts: { model?: string; finishReason?: string; role?: boolean } = {}): Record<string, unknown> {
  return {
    id: "chatcmpl-standin",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: opts.model ?? "standin",
    choices: [{ index: 0, delta: { ...(opts.role ? { role: "assistant" } : {}), content }, finish_reason: opts.finishReason ?? null }],
  };
}

/** A chunk carrying one whole tool call (OpenAI's `delta.tool_calls`), then one that ends the choice with `tool_calls`. */
export function toolCallChunks(id: string, name: string, args: unknown): Record<string, unknown>[] {
  const base = { id: "chatcmpl-standin", object: "chat.completion.chunk", created: 1_700_000_000, model: "standin" };
  return [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: JSON.stringify(args) } }] }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
  ];
}

/** The final chunk OpenAI sends with `stream_options.include_usage`: no choices, the usage. */
export function usageChunk(promptTokens: number, completionTokens: number, model = "standin"): Record<string, unknown> {
  return {
    id: "chatcmpl-standin",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** An OpenAI-style error body, as in a 4xx/5xx answer or an error event inside a stream. */
export function openAIError(message: string, type = "server_error", code: string | null = null): { error: Record<string, unknown> } {
  return { error: { message, type, param: null, code } };
}

/** The full text the default echo answers to `body` (what a resumed turn adds up to). */
export function echoText(body: ChatRequestBody | undefined): string {
  const messages = body?.messages ?? [];
  const resuming = messages.at(-1)?.role === "user" && messages.at(-1)?.content === CONTINUE_PROMPT && messages.at(-2)?.role === "assistant";
  const users = messages.slice(0, resuming ? -2 : undefined).filter((m) => m.role === "user");
  const words = (users.at(-1)?.content ?? "").match(/\S+/g) ?? [];
  return words.length ? words.join(" ") : "(nothing to echo)";
}

/** The default answer: the echo (or, when resuming, the rest of it) in chunks, usage, [DONE]. */
export function echoAnswer(body: ChatRequestBody | undefined, opts: { wordsPerChunk?: number; delayMs?: number } = {}): StandinAnswer {
  const full = echoText(body);
  const messages = body?.messages ?? [];
  const partial = messages.at(-1)?.content === CONTINUE_PROMPT ? (messages.at(-2)?.content ?? "") : "";
  const text = partial && full.startsWith(partial) ? full.slice(partial.length) : full;
  const pieces = text.match(/\s*\S+/g) ?? [];
  const per = Math.max(1, opts.wordsPerChunk ?? 2);
  const model = body?.model ?? "standin";
  const events: StandinEvent[] = [contentChunk("", { model, role: true })];
  for (let i = 0; i < pieces.length; i += per) events.push(contentChunk(pieces.slice(i, i + per).join(""), { model }));
  events.push({ ...contentChunk("", { model }), choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
  if (body?.stream_options?.include_usage) {
    const promptChars = messages.reduce((n, m) => n + String(m.content ?? "").length, 0);
    events.push(usageChunk(Math.ceil(promptChars / 4), Math.ceil(text.length / 4), model));
  }
  return { events, delayMs: opts.delayMs };
}

// ---- the server ----

export async function startOpenAIStandin(opts: OpenAIStandinOptions = {}): Promise<OpenAIStandin> {
  const requests: RecordedChatRequest[] = [];
  const timers = new Map<NodeJS.Timeout, () => void>();
  let script: StandinScript | null = null;
  let closing = false;
  const defaultDelay = opts.delayMs ?? 5;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.set(timer, resolve);
    });

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (typeof body === "string") {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
      return res.end(body);
    }
    res.writeHead(status, { "content-type": "application/json", "x-request-id": randomUUID(), ...headers });
    res.end(body === undefined ? "" : JSON.stringify(body));
  };

  const stream = async (res: ServerResponse, record: RecordedChatRequest, answer: Extract<StandinAnswer, { events: unknown }>) => {
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    const delay = answer.delayMs ?? defaultDelay;
    const gone = () => closing || res.destroyed || res.writableEnded;
    for (const event of answer.events) {
      if (delay > 0) await sleep(delay);
      if (gone()) return;
      res.write(typeof event === "string" || event instanceof Uint8Array ? event : `data: ${JSON.stringify(event)}\n\n`);
      record.sent++;
    }
    if (delay > 0) await sleep(delay);
    if (gone()) return;
    switch (answer.end ?? "done") {
      case "done":
        res.end("data: [DONE]\n\n");
        break;
      case "close":
        res.end();
        break;
      case "destroy":
        res.socket?.destroy();
        break;
      case "hang":
        break;
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let json: ChatRequestBody | undefined;
      try {
        json = text ? (JSON.parse(text) as ChatRequestBody) : undefined;
      } catch {
        json = undefined;
      }
      const path = (req.url ?? "/").split("?")[0]!;
      const closed = new Promise<"completed" | "interrupted">((resolve) => res.once("close", () => resolve(res.writableFinished ? "completed" : "interrupted")));
      const record: RecordedChatRequest = { method: req.method ?? "", path, headers: req.headers, text, json, sent: 0, closed };
      requests.push(record);

      if (req.method !== "POST" || path !== "/v1/chat/completions")
        return sendJson(res, 404, openAIError(`Unknown request URL: ${req.method} ${path}.`, "invalid_request_error", "unknown_url"));
      if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
        const sent = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
        const message = sent
          ? `Incorrect API key provided: ${sent}. You can find your API key at https://platform.openai.com/account/api-keys.`
          : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.";
        return sendJson(res, 401, openAIError(message, "invalid_request_error", "invalid_api_key"));
      }
      const answer = script?.(record, requests.length - 1) ?? (json ? echoAnswer(json, { wordsPerChunk: opts.wordsPerChunk }) : undefined);
      if (!answer) return sendJson(res, 400, openAIError("We could not parse the JSON body of your request.", "invalid_request_error"));
      if ("status" in answer) return sendJson(res, answer.status, answer.body, answer.headers);
      stream(res, record, answer).catch(() => res.destroy());
    });
  });

  const origin = await listenLocal(server, opts);

  return {
    url: `${origin}/v1`,
    requests,
    setScript(next) {
      script = next;
    },
    reset() {
      requests.length = 0;
      script = null;
    },
    close() {
      closing = true;
      for (const [timer, wake] of timers) {
        clearTimeout(timer);
        wake(); // the stream sees `closing` and stops
      }
      timers.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
