import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { after, before, beforeEach, describe, test } from "node:test";
import {
  contentChunk,
  echoText,
  openAIError,
  startOpenAIStandin,
  usageChunk,
  type OpenAIStandin,
} from "../../testing/openai-standin.ts";
import type { TurnRequest, TurnStream } from "../provider.ts";
import { CONTINUE_PROMPT, costCents, DEFAULT_PRICES, ModelEndpointError, OpenAIProvider } from "./openai.ts";

const KEY = "sk-test-SECRET-0123456789abcdefXYZ";
const USER = "plan the launch party with cake and music for everyone";

function request(over: Partial<TurnRequest> = {}): TurnRequest {
  return { messages: [{ role: "user", content: USER }], settings: {}, resumeFrom: "", ...over };
}

async function collect(stream: TurnStream): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of stream.deltas) out.push(piece);
  return out;
}

/** The error a stream ends with (fails when it ends without one). */
async function failure(stream: TurnStream): Promise<Error> {
  try {
    await collect(stream);
  } catch (err) {
    assert.ok(err instanceof Error);
    return err;
  }
  assert.fail("the stream ended without an error");
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))),
  ]);
}

/** A fetch that answers with a 200 event stream made of exactly these byte chunks. */
function fetchChunks(chunks: Uint8Array[]): (input: string, init: RequestInit) => Promise<Response> {
  return async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

/** A raw TCP server that reads requests and never answers; `sockets` records what each connection got. */
async function silentServer() {
  const sockets: { socket: Socket; bytes: number; closed: boolean }[] = [];
  const server = createServer((socket) => {
    const entry = { socket, bytes: 0, closed: false };
    sockets.push(entry);
    socket.on("data", (d) => (entry.bytes += d.length));
    socket.on("close", () => (entry.closed = true));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    port,
    sockets,
    close: async () => {
      for (const { socket } of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

async function waitFor(ok: () => boolean, what: string, ms = 1000) {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.ok(ok(), what);
}

let standin: OpenAIStandin;
let provider: OpenAIProvider;

before(async () => {
  standin = await startOpenAIStandin({ delayMs: 2 });
});
after(() => standin.close());
beforeEach(() => {
  standin.reset();
  provider = new OpenAIProvider({ baseUrl: standin.url, apiKey: KEY, model: "gpt-4o-mini" });
});

describe("streaming", () => {
  test("pieces arrive in order, several of them, and join to the reply", async () => {
    const stream = provider.stream(request(), new AbortController().signal);
    const pieces = await collect(stream);
    assert.ok(pieces.length >= 4, `expected several pieces, got ${pieces.length}`);
    assert.ok(pieces.every((p) => p.length > 0), "no empty pieces");
    assert.equal(pieces.join(""), USER);
    assert.equal(pieces.join(""), echoText(standin.requests[0]!.json));
  });

  test("nothing is requested until the deltas are read", async () => {
    provider.stream(request(), new AbortController().signal);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(standin.requests.length, 0);
  });

  test("the request: model override, system prompt first, streaming options, sampling settings, bearer key", async () => {
    const messages: TurnRequest["messages"] = [
      { role: "system", content: "Summary of earlier turns." },
      { role: "user", content: "first" },
      { role: "assistant", content: "ok" },
      { role: "user", content: USER },
    ];
    const trailing = new OpenAIProvider({ baseUrl: `${standin.url}/`, apiKey: KEY, model: "gpt-4o-mini" });
    await collect(
      trailing.stream(request({ messages, settings: { model: "gpt-4.1", systemPrompt: "You are terse.", temperature: 0.3, maxTokens: 512 } }), new AbortController().signal),
    );
    const [req] = standin.requests;
    assert.equal(req!.method, "POST");
    assert.equal(req!.path, "/v1/chat/completions", "a trailing slash on baseUrl is fine");
    assert.equal(req!.headers.authorization, `Bearer ${KEY}`);
    assert.match(String(req!.headers["content-type"]), /^application\/json/);
    assert.deepEqual(req!.json, {
      model: "gpt-4.1",
      messages: [{ role: "system", content: "You are terse." }, ...messages],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      max_tokens: 512,
    });
  });

  test("defaults: the provider's model, no sampling fields, no system prompt, and no Authorization without a key", async () => {
    const keyless = new OpenAIProvider({ baseUrl: standin.url, model: "llama3.2" });
    await collect(keyless.stream(request({ settings: { systemPrompt: "   " } }), new AbortController().signal));
    const [req] = standin.requests;
    assert.equal(req!.headers.authorization, undefined);
    assert.deepEqual(req!.json, {
      model: "llama3.2",
      messages: [{ role: "user", content: USER }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test("a server that ignores stream:true and answers one JSON completion still gives the reply", async () => {
    standin.setScript(() => ({
      status: 200,
      body: { id: "x", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "All at once." } }], usage: { prompt_tokens: 9, completion_tokens: 3 } },
    }));
    const stream = provider.stream(request(), new AbortController().signal);
    assert.deepEqual(await collect(stream), ["All at once."]);
    assert.deepEqual(stream.usage(), { tokensIn: 9, tokensOut: 3 });
  });
});

describe("usage", () => {
  test("taken from the stream's usage chunk, and only once the stream ended", async () => {
    standin.setScript(() => ({ events: [contentChunk("Hello "), contentChunk("there."), usageChunk(1234, 56)] }));
    const stream = provider.stream(request(), new AbortController().signal);
    assert.equal(stream.usage(), null);
    const pieces: string[] = [];
    for await (const piece of stream.deltas) {
      pieces.push(piece);
      assert.equal(stream.usage(), null, "no usage while streaming");
    }
    assert.deepEqual(pieces, ["Hello ", "there."]);
    assert.deepEqual(stream.usage(), { tokensIn: 1234, tokensOut: 56 });
  });

  test("the default stand-in reports usage too (a different count than the word estimate)", async () => {
    const stream = provider.stream(request(), new AbortController().signal);
    await collect(stream);
    const words = USER.split(" ").length;
    assert.deepEqual(stream.usage(), { tokensIn: Math.ceil(USER.length / 4), tokensOut: Math.ceil(USER.length / 4) });
    assert.notEqual(stream.usage()!.tokensOut, words);
  });

  test("estimated in words when the endpoint reports none", async () => {
    standin.setScript(() => ({ events: [contentChunk("one two "), contentChunk("three")] }));
    const stream = provider.stream(request({ settings: { systemPrompt: "be brief" } }), new AbortController().signal);
    await collect(stream);
    assert.deepEqual(stream.usage(), { tokensIn: 2 + USER.split(" ").length, tokensOut: 3 });
  });
});

describe("resume", () => {
  test("sends the partial reply and the continue instruction, and yields only the rest", async () => {
    const partial = "plan the launch party";
    const history = request().messages;
    const stream = provider.stream(request({ resumeFrom: partial }), new AbortController().signal);
    const pieces = await collect(stream);
    const body = standin.requests[0]!.json!;
    assert.deepEqual(body.messages, [...history, { role: "assistant", content: partial }, { role: "user", content: CONTINUE_PROMPT }]);
    assert.equal(CONTINUE_PROMPT, "Continue exactly where you stopped, without repeating anything.");
    assert.equal(pieces.join(""), USER.slice(partial.length));
    assert.equal(partial + pieces.join(""), USER);
    assert.deepEqual(stream.usage()?.tokensOut, Math.ceil(USER.slice(partial.length).length / 4));
  });

  test("a model that repeats the partial text anyway: the repeat is dropped", async () => {
    const partial = "The plan: book a venue";
    standin.setScript(() => ({ events: ["The plan: ", "book a", " venue, then", " send invites."].map((c) => contentChunk(c)) }));
    const pieces = await collect(provider.stream(request({ resumeFrom: partial }), new AbortController().signal));
    assert.equal(pieces.join(""), ", then send invites.");
  });

  test("a continuation that only starts like the partial is kept whole", async () => {
    standin.setScript(() => ({ events: ["The plan", " changed: we wait."].map((c) => contentChunk(c)) }));
    const pieces = await collect(provider.stream(request({ resumeFrom: "The plan: book a venue" }), new AbortController().signal));
    assert.equal(pieces.join(""), "The plan changed: we wait.");
  });

  test("a blank resumeFrom is a fresh turn", async () => {
    await collect(provider.stream(request({ resumeFrom: "  " }), new AbortController().signal));
    assert.deepEqual(standin.requests[0]!.json!.messages, request().messages);
  });
});

describe("failures are readable and never show the API key", () => {
  function assertClean(err: Error, pattern: RegExp) {
    assert.match(err.message, pattern);
    assert.ok(!err.message.includes(KEY), `the key leaked: ${err.message}`);
    assert.ok(!err.message.includes("SECRET"), `part of the key leaked: ${err.message}`);
  }

  test("401 with OpenAI's error body (which quotes the key sent)", async () => {
    const guarded = await startOpenAIStandin({ apiKey: "sk-the-right-one" });
    try {
      const p = new OpenAIProvider({ baseUrl: guarded.url, apiKey: KEY, model: "gpt-4o" });
      const err = await failure(p.stream(request(), new AbortController().signal));
      assert.ok(err instanceof ModelEndpointError);
      assert.equal(err.status, 401);
      assertClean(err, /^Model endpoint answered 401: Incorrect API key provided: \[redacted\]\./);
      assert.equal(guarded.requests.length, 1);
    } finally {
      await guarded.close();
    }
  });

  test("500 with an error body; the message is cut to 300 characters", async () => {
    standin.setScript(() => ({ status: 500, body: openAIError(`The server had an error (key ${KEY}). ${"x".repeat(1000)}`) }));
    const err = await failure(provider.stream(request(), new AbortController().signal));
    assertClean(err, /^Model endpoint answered 500: The server had an error \(key \[redacted\]\)\. x+…$/);
    assert.equal(err.message.length, "Model endpoint answered 500: ".length + 300);
  });

  test("other error body shapes, plain text, and no body at all", async () => {
    const cases: [unknown, RegExp][] = [
      [{ error: "model 'nope' not found" }, /^Model endpoint answered 404: model 'nope' not found$/],
      [{ detail: "Not Found" }, /^Model endpoint answered 404: Not Found$/],
      ["404 page not found", /^Model endpoint answered 404: 404 page not found$/],
      [undefined, /^Model endpoint answered 404: Not Found$/],
    ];
    for (const [body, pattern] of cases) {
      standin.setScript(() => ({ status: 404, body }));
      assertClean(await failure(provider.stream(request(), new AbortController().signal)), pattern);
    }
  });

  test("an error event mid-stream, after some pieces", async () => {
    standin.setScript(() => ({ events: [contentChunk("Partial "), contentChunk("answer"), openAIError(`Overloaded (${KEY})`), contentChunk("never")], end: "hang" }));
    const stream = provider.stream(request(), new AbortController().signal);
    const pieces: string[] = [];
    const err = await (async () => {
      try {
        for await (const piece of stream.deltas) pieces.push(piece);
      } catch (e) {
        return e as Error;
      }
      assert.fail("no error");
    })();
    assert.deepEqual(pieces, ["Partial ", "answer"]);
    assertClean(err, /^Model endpoint reported an error: Overloaded \(\[redacted\]\)$/);
    assert.equal(await within(standin.requests[0]!.closed, 2000, "connection released"), "interrupted");
  });

  test("an `event: error` event", async () => {
    standin.setScript(() => ({ events: [contentChunk("Hi"), 'event: error\ndata: {"message":"rate limited"}\n\n'] }));
    assertClean(await failure(provider.stream(request(), new AbortController().signal)), /^Model endpoint reported an error: rate limited$/);
  });

  test("a stream that ends without content and without [DONE]", async () => {
    standin.setScript(() => ({ events: [": keep-alive\n\n", contentChunk("", { role: true })], end: "close" }));
    assertClean(await failure(provider.stream(request(), new AbortController().signal)), /^Model endpoint stream ended without a reply/);
  });

  test("content but no [DONE] at a clean end is accepted (some servers omit it)", async () => {
    standin.setScript(() => ({ events: [contentChunk("Fine "), contentChunk("anyway.", { finishReason: "stop" })], end: "close" }));
    assert.equal((await collect(provider.stream(request(), new AbortController().signal))).join(""), "Fine anyway.");
  });

  test("a connection cut mid-response", async () => {
    standin.setScript(() => ({ events: [contentChunk("Half a "), contentChunk("reply")], end: "destroy" }));
    assertClean(await failure(provider.stream(request(), new AbortController().signal)), /^Model endpoint stream broke off: /);
  });

  test("an unreadable event", async () => {
    standin.setScript(() => ({ events: ["data: {not json\n\n"] }));
    assertClean(await failure(provider.stream(request(), new AbortController().signal)), /^Model endpoint sent an unreadable event: \{not json$/);
  });

  test("an empty [DONE]-terminated stream is an empty reply, not an error", async () => {
    standin.setScript(() => ({ events: [] }));
    assert.deepEqual(await collect(provider.stream(request(), new AbortController().signal)), []);
  });

  test("an endpoint that is not listening", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const p = new OpenAIProvider({ baseUrl: `http://127.0.0.1:${port}/v1/`, apiKey: KEY, model: "gpt-4o" });
    const err = await failure(p.stream(request(), new AbortController().signal));
    assertClean(err, new RegExp(`^Model endpoint unreachable at http://127\\.0\\.0\\.1:${port}/v1: .*ECONNREFUSED`));
  });

  test("an endpoint that accepts the request and never answers: stopped after the idle timeout, and the connection closed", async () => {
    const silent = await silentServer();
    try {
      const p = new OpenAIProvider({ baseUrl: `http://127.0.0.1:${silent.port}/v1`, apiKey: KEY, model: "m", idleTimeoutMs: 150 });
      const err = await within(failure(p.stream(request(), new AbortController().signal)), 5000, "the idle timeout");
      assert.ok(err instanceof ModelEndpointError);
      assert.equal(err.message, "Model endpoint sent nothing for 0.2 s (AGENT_IDLE_TIMEOUT_MS); the turn was stopped");
      assert.ok((silent.sockets[0]?.bytes ?? 0) > 0, "the request was sent");
      await waitFor(() => silent.sockets[0]!.closed, "the connection was closed");
    } finally {
      await silent.close();
    }
  });

  test("a stream that goes silent after some pieces: stopped after the idle timeout", async () => {
    standin.setScript(() => ({ events: [contentChunk("Hello "), contentChunk("there")], end: "hang" }));
    const p = new OpenAIProvider({ baseUrl: standin.url, apiKey: KEY, model: "gpt-4o-mini", idleTimeoutMs: 200 });
    const seen: string[] = [];
    const err = await within(
      (async () => {
        try {
          for await (const piece of p.stream(request(), new AbortController().signal).deltas) seen.push(piece);
        } catch (e) {
          return e as Error;
        }
        assert.fail("the silent stream ended without an error");
      })(),
      5000,
      "the idle timeout",
    );
    assert.deepEqual(seen, ["Hello ", "there"]);
    assert.match(err.message, /^Model endpoint sent nothing for 0\.2 s/);
    assert.equal(await within(standin.requests[0]!.closed, 1000, "socket close"), "interrupted");
  });

  test("a slow consumer is not the endpoint's silence: time spent between reads does not count", async () => {
    standin.setScript(() => ({ events: [contentChunk("a "), contentChunk("b "), contentChunk("c")], delayMs: 1 }));
    const p = new OpenAIProvider({ baseUrl: standin.url, apiKey: KEY, model: "gpt-4o-mini", idleTimeoutMs: 100 });
    const seen: string[] = [];
    for await (const piece of p.stream(request(), new AbortController().signal).deltas) {
      seen.push(piece);
      await new Promise((r) => setTimeout(r, 250)); // the runner busy with a piece for longer than the timeout
    }
    assert.equal(seen.join(""), "a b c");
  });

  test("a web page instead of the API", async () => {
    standin.setScript(() => ({ status: 200, body: "<html>hi</html>", headers: { "content-type": "text/html" } }));
    assertClean(await failure(provider.stream(request(), new AbortController().signal)), /^Model endpoint answered with a web page/);
  });

  test("a bad baseUrl is refused at construction", () => {
    assert.throws(() => new OpenAIProvider({ baseUrl: "localhost:11434", model: "m" }), /baseUrl must be an absolute http\(s\) URL/);
  });
});

describe("abort", () => {
  test("abort mid-stream stops promptly with an AbortError and the stand-in sees the socket close", async () => {
    standin.setScript(() => ({ events: Array.from({ length: 50 }, (_, i) => contentChunk(`w${i} `)), delayMs: 400 }));
    const controller = new AbortController();
    const stream = provider.stream(request(), controller.signal);
    const it = stream.deltas[Symbol.asyncIterator]();
    assert.deepEqual(await it.next(), { value: "w0 ", done: false });
    const pending = it.next();
    controller.abort();
    // An AbortError, not the next word (due 400 ms later): the abort ended the pending read.
    await assert.rejects(within(pending, 5000, "the pending step"), { name: "AbortError" });
    const req = standin.requests[0]!;
    assert.equal(await within(req.closed, 1000, "socket close"), "interrupted");
    const sent = req.sent;
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(req.sent, sent, "the stand-in stopped writing");
    assert.ok(sent < 5);
    assert.deepEqual(await it.next(), { value: undefined, done: true });
    assert.notEqual(stream.usage(), null, "an estimate once the stream ended");
  });

  test("abort with a reason rejects with that reason", async () => {
    standin.setScript(() => ({ events: [contentChunk("a")], end: "hang" }));
    const controller = new AbortController();
    const it = provider.stream(request(), controller.signal).deltas[Symbol.asyncIterator]();
    await it.next();
    const pending = it.next();
    const reason = new Error("paused");
    controller.abort(reason);
    await assert.rejects(within(pending, 1000, "the pending step"), (err) => err === reason);
  });

  test("abort while waiting for the response headers", async () => {
    const silent = await silentServer();
    try {
      const p = new OpenAIProvider({ baseUrl: `http://127.0.0.1:${silent.port}/v1`, model: "m" });
      const controller = new AbortController();
      const pending = p.stream(request(), controller.signal).deltas[Symbol.asyncIterator]().next();
      await waitFor(() => (silent.sockets[0]?.bytes ?? 0) > 0, "the request arrived");
      controller.abort();
      await assert.rejects(within(pending, 1000, "the pending request"), { name: "AbortError" });
      await waitFor(() => silent.sockets[0]!.closed, "the connection was closed");
      // (undici may open a spare connection afterwards; no request is sent on it)
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(silent.sockets.slice(1).map((s) => s.bytes).filter(Boolean), [], "the request was not sent again");
    } finally {
      await silent.close();
    }
  });

  test("an already aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(collect(provider.stream(request(), controller.signal)), { name: "AbortError" });
    assert.equal(standin.requests.length, 0);
  });

  test("a consumer that stops reading releases the connection", async () => {
    standin.setScript(() => ({ events: Array.from({ length: 50 }, (_, i) => contentChunk(`w${i} `)), delayMs: 50 }));
    const stream = provider.stream(request(), new AbortController().signal);
    for await (const piece of stream.deltas) {
      assert.equal(piece, "w0 ");
      break;
    }
    assert.equal(await within(standin.requests[0]!.closed, 1000, "socket close"), "interrupted");
  });

  test("a finished stream leaves the answer completed", async () => {
    await collect(provider.stream(request(), new AbortController().signal));
    assert.equal(await within(standin.requests[0]!.closed, 1000, "close"), "completed");
  });
});

describe("the stand-in", () => {
  test("closes promptly with a stream still open, and the client sees the cut", async () => {
    const own = await startOpenAIStandin();
    own.setScript(() => ({ events: [contentChunk("stuck")], end: "hang" }));
    const p = new OpenAIProvider({ baseUrl: own.url, model: "m" });
    const it = p.stream(request(), new AbortController().signal).deltas[Symbol.asyncIterator]();
    assert.deepEqual(await it.next(), { value: "stuck", done: false });
    const pending = it.next();
    await within(own.close(), 1000, "close()");
    assert.equal(await within(own.requests[0]!.closed, 1000, "socket close"), "interrupted");
    await assert.rejects(within(pending, 1000, "the pending step"), /^ModelEndpointError: Model endpoint stream broke off: /);
  });

  test("unknown paths get an OpenAI-style 404", async () => {
    const res = await fetch(standin.url.replace(/\/v1$/, "/v2/chat/completions"), { method: "POST", body: "{}" });
    assert.equal(res.status, 404);
    assert.deepEqual(((await res.json()) as { error: { code: string } }).error.code, "unknown_url");
  });
});

describe("Server-Sent Events edge cases", () => {
  const frame = (content: string) => `data: ${JSON.stringify(contentChunk(content))}`;

  test("lines split across network writes, CRLF line ends, comments, several events per write", async () => {
    const a = frame("Alpha ");
    const b = frame("beta ");
    const c = frame("gamma");
    standin.setScript(() => ({
      delayMs: 15,
      events: [
        ": connected\n\n",
        a.slice(0, 9),
        a.slice(9, 30),
        `${a.slice(30)}\n`,
        "\n",
        `: keep-alive\r\n\r\n${b}\r`,
        `\n\r\n${c}\r\n\r\n`,
        `data: ${JSON.stringify(usageChunk(7, 3))}\n\ndata: [DO`,
        "NE]\n\n",
      ],
      end: "close",
    }));
    const stream = provider.stream(request(), new AbortController().signal);
    assert.deepEqual(await collect(stream), ["Alpha ", "beta ", "gamma"]);
    assert.deepEqual(stream.usage(), { tokensIn: 7, tokensOut: 3 });
  });

  test("every byte in its own chunk, multi-byte characters split, bare CR line ends, `data:` without a space", async () => {
    const text = [
      ": ping",
      "",
      `data:${JSON.stringify(contentChunk("Grüße "))}`,
      "",
      frame("— 東京 "),
      "",
      frame("🎉"),
      "",
      "data: [DONE]",
      "",
      "",
    ].join("\r");
    const bytes = new TextEncoder().encode(text);
    const p = new OpenAIProvider({ baseUrl: "http://model.invalid/v1", model: "m", fetch: fetchChunks([...bytes].map((b) => Uint8Array.of(b))) });
    assert.deepEqual(await collect(p.stream(request(), new AbortController().signal)), ["Grüße ", "— 東京 ", "🎉"]);
  });

  test("one event's JSON over several data lines, with CRLF split between CR and LF", async () => {
    const json = JSON.stringify(contentChunk("joined"));
    const half = json.indexOf('"choices"');
    const text = `data: ${json.slice(0, half)}\r\ndata: ${json.slice(half)}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const bytes = new TextEncoder().encode(text);
    const p = new OpenAIProvider({ baseUrl: "http://model.invalid/v1", model: "m", fetch: fetchChunks([...bytes].map((b) => Uint8Array.of(b))) });
    assert.deepEqual(await collect(p.stream(request(), new AbortController().signal)), ["joined"]);
  });

  test("a last event without its blank line still counts", async () => {
    const bytes = new TextEncoder().encode(`${frame("tail")}`);
    const p = new OpenAIProvider({ baseUrl: "http://model.invalid/v1", model: "m", fetch: fetchChunks([bytes]) });
    assert.deepEqual(await collect(p.stream(request(), new AbortController().signal)), ["tail"]);
  });

  test("a split UTF-8 character through the real socket", async () => {
    const bytes = Buffer.from(`${frame("naïve ☕")}\n\n`);
    const cut = bytes.indexOf(Buffer.from("☕")) + 1;
    standin.setScript(() => ({ events: [bytes.subarray(0, cut), bytes.subarray(cut)], delayMs: 15 }));
    assert.deepEqual(await collect(provider.stream(request(), new AbortController().signal)), ["naïve ☕"]);
  });

  test("the request goes to the configured endpoint, keeping a query string", async () => {
    let seen = "";
    const p = new OpenAIProvider({
      baseUrl: "https://user:pw@example.invalid/openai/v1/?api-version=1",
      model: "m",
      fetch: async (url) => {
        seen = url;
        throw new TypeError("fetch failed", { cause: new Error("getaddrinfo ENOTFOUND example.invalid") });
      },
    });
    const err = await failure(p.stream(request(), new AbortController().signal));
    assert.equal(seen, "https://user:pw@example.invalid/openai/v1/chat/completions?api-version=1");
    assert.equal(err.message, "Model endpoint unreachable at https://example.invalid/openai/v1: getaddrinfo ENOTFOUND example.invalid");
  });
});

describe("blocksFor", () => {
  const item = (text: string) => ({ type: "checklist_item", actionable: true, content: { text } });

  test("checklist items from the reply's list lines", () => {
    const reply = "Here is the plan:\n\n1. Book the venue\n2. Send invites\n- [ ] Order the cake\n* [x] Hire a DJ\n\nGood luck!";
    assert.deepEqual(provider.blocksFor(reply, ["- ignored\n- too"]), [item("Book the venue"), item("Send invites"), item("Order the cake"), item("Hire a DJ")]);
  });

  test("list lines inside fenced code are not tasks", () => {
    const reply = "Config:\n```yaml\n- name: a\n- name: b\n```\n- Deploy it";
    assert.deepEqual(provider.blocksFor(reply, []), [item("Deploy it")]);
  });

  test("from the user's last message when the reply has no list", () => {
    assert.deepEqual(provider.blocksFor("Sounds good, let us start.", ["- old one", "Launch:\n- book venue\n- send invites"]), [item("book venue"), item("send invites")]);
  });

  test("none when neither has a list", () => {
    assert.deepEqual(provider.blocksFor("Sure.", ["Write the README"]), []);
    assert.deepEqual(provider.blocksFor("", []), []);
  });
});

describe("costCents", () => {
  test("known models, at list price, rounded up to whole cents", () => {
    assert.equal(costCents("gpt-4o", { tokensIn: 1_000_000, tokensOut: 1_000_000 }), 1250);
    assert.equal(costCents("gpt-4o-mini", { tokensIn: 1_000_000, tokensOut: 0 }), 15);
    assert.equal(costCents("gpt-4o-mini", { tokensIn: 100, tokensOut: 20 }), 1, "a tiny non-zero cost is one cent");
    assert.equal(costCents("gpt-4o", { tokensIn: 0, tokensOut: 0 }), 0);
  });

  test("dated snapshots and vendor prefixes match their model; the longest name wins", () => {
    assert.equal(costCents("gpt-4o-2024-08-06", { tokensIn: 1_000_000, tokensOut: 0 }), 250);
    assert.equal(costCents("gpt-4o-mini-2024-07-18", { tokensIn: 1_000_000, tokensOut: 0 }), 15);
    assert.equal(costCents("openai/gpt-4.1-mini", { tokensIn: 0, tokensOut: 1_000_000 }), 160);
  });

  test("unknown models cost nothing", () => {
    assert.equal(costCents("llama3.2", { tokensIn: 5_000_000, tokensOut: 5_000_000 }), 0);
    assert.equal(costCents("gpt-4oo", { tokensIn: 5_000_000, tokensOut: 0 }), 0);
  });

  test("a custom price table replaces the default", () => {
    const prices = { "my-model": { inPerMTok: 100, outPerMTok: 300 } };
    assert.equal(costCents("my-model", { tokensIn: 2_000_000, tokensOut: 1_000_000 }, prices), 500);
    assert.equal(costCents("gpt-4o", { tokensIn: 1_000_000, tokensOut: 0 }, prices), 0);
    assert.equal(costCents("gpt-4o", { tokensIn: 1_000_000, tokensOut: 0 }, { ...DEFAULT_PRICES, ...prices }), 250);
  });

  test("a cost that is a whole number of cents is not rounded up by float error", () => {
    assert.equal(costCents("x", { tokensIn: 30_000_000, tokensOut: 0 }, { x: { inPerMTok: 1.1, outPerMTok: 0 } }), 33); // 3e7 * 1.1 is 33000000.000000004 in floats
    assert.equal(costCents("x", { tokensIn: 7_000_000, tokensOut: 0 }, { x: { inPerMTok: 0.3, outPerMTok: 0 } }), 3); // 2.1 cents
    assert.equal(costCents("x", { tokensIn: 1, tokensOut: 0 }, { x: { inPerMTok: 0.3, outPerMTok: 0 } }), 1);
    assert.equal(costCents("gpt-4.1-nano", { tokensIn: 3_000_000, tokensOut: 0 }), 30);
  });
});
