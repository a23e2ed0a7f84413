import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { contentChunk, openAIError, startOpenAIStandin, toolCallChunks, type OpenAIStandin } from "../testing/openai-standin.ts";
import { createTestUser, startTestRuntime, type TestRuntime } from "../testing/runtime.ts";
import { ConfiguredProvider } from "./providers/configured.ts";
import { LocalProvider } from "./providers/local.ts";
import { TurnRunner } from "./turn-runner.ts";
import { changeTodo, setStatus } from "../services/todos/lifecycle.ts";

// The runner with a configured OpenAI-compatible provider (the AI SDK's @ai-sdk/openai-compatible),
// against a local server that speaks the streaming protocol: the code path users get with
// OPENAI_BASE_URL or an AGENT_PROVIDERS entry of kind openai-compatible.
let t: TestRuntime;
let standin: OpenAIStandin;
let runner: TurnRunner;
const KEY = "sk-unit-SECRET-42";
const logged: string[] = [];
const originalWrite = process.stderr.write.bind(process.stderr);

before(async () => {
  t = await startTestRuntime();
  standin = await startOpenAIStandin({ delayMs: 15, apiKey: KEY });
  const openai = new ConfiguredProvider({ name: "openai", kind: "openai-compatible", baseUrl: standin.url, apiKey: KEY, models: { "gpt-4o-mini": { inPerMTok: 15, outPerMTok: 60 } }, defaultModel: "gpt-4o-mini", maxTokens: 4096, contextWindow: 128_000 });
  runner = new TurnRunner({ providers: { local: new LocalProvider(0), openai }, defaultProvider: "local", maxConcurrent: 8, maxPerUser: 8, flushMs: 0, persistMs: 0, maxRetries: 0, idleTimeoutMs: 1000 });
  // Everything written to stderr (the log) while these tests run, to check that the key never is.
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    logged.push(String(chunk));
    return originalWrite(chunk, ...rest);
  }) as typeof process.stderr.write;
});
after(async () => {
  process.stderr.write = originalWrite;
  await runner.stop();
  await standin.close();
  await t.close();
});

async function openaiTodo(content: string) {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "OpenAI" } });
  const todo = await t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content, status: "RUNNING", agentSettings: { provider: "openai", systemPrompt: "Be brief." } } });
  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content, state: "PENDING" } });
  return todo;
}

test("a todo set to the openai provider streams its reply from the endpoint and records its usage and cost", async () => {
  standin.reset();
  const todo = await openaiTodo("please list three colours now");
  runner.start(todo.id);
  await runner.idle();
  const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(reply.state, "DONE");
  assert.equal(reply.content, "please list three colours now");
  const usage = reply.usage as { provider: string; model: string; tokensIn: number; tokensOut: number; costCents: number };
  assert.equal(usage.provider, "openai");
  assert.equal(usage.model, "gpt-4o-mini");
  assert.ok(usage.tokensIn > 0 && usage.tokensOut > 0);
  assert.ok(usage.costCents >= 1, "gpt-4o-mini is priced");
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "READY");
  const sent = standin.requests[0]!.json!;
  assert.equal(sent.model, "gpt-4o-mini");
  assert.equal(sent.max_tokens, 4096, "the provider's cap is sent");
  assert.deepEqual(sent.messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "please list three colours now" },
  ]);
  assert.equal(standin.requests[0]!.headers.authorization, `Bearer ${KEY}`);
});

test("an endpoint error leaves the todo ERROR with the reason shown, never the key (not in the todo, not in the log)", async () => {
  standin.reset();
  standin.setScript(() => ({ status: 500, body: openAIError(`The server had an error processing your request (key ${KEY})`) }));
  const todo = await openaiTodo("fail please");
  runner.start(todo.id);
  await runner.idle();
  const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
  assert.equal(after.status, "ERROR");
  const reason = (after.metadata as { error: string }).error;
  assert.match(reason, /^Model endpoint answered 500: The server had an error processing your request/);
  assert.ok(!reason.includes(KEY));
  assert.ok(!logged.join("").includes(KEY), "the key is not logged");
});

test("an error event mid-stream ends the turn in ERROR with the partial text kept", async () => {
  standin.reset();
  standin.setScript(() => ({ events: [contentChunk("Half ", { role: true }), contentChunk("a reply"), openAIError("the model crashed")] }));
  const todo = await openaiTodo("go on");
  runner.start(todo.id);
  await runner.idle();
  const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, include: { messages: { where: { role: "assistant" } } } });
  assert.equal(after.status, "ERROR");
  assert.match((after.metadata as { error: string }).error, /the model crashed/);
  assert.equal(after.messages[0]!.state, "ERROR");
  assert.equal(after.messages[0]!.content, "Half a reply");
});

test("an endpoint that goes silent ends the turn after the idle timeout, the partial reply kept", async () => {
  standin.reset();
  standin.setScript(() => ({ events: [contentChunk("Thinking", { role: true })], end: "hang" }));
  const todo = await openaiTodo("slow");
  runner.start(todo.id);
  await runner.idle();
  const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, include: { messages: { where: { role: "assistant" } } } });
  assert.equal(after.status, "ERROR");
  assert.equal((after.metadata as { error: string }).error, "Model endpoint sent nothing for 1 s (AGENT_IDLE_TIMEOUT_MS); the turn was stopped");
  assert.equal(after.messages[0]!.content, "Thinking");
});

test("pause mid-stream stops the request; resume continues with the partial reply, not again from the start", async () => {
  standin.reset();
  const todo = await openaiTodo("one two three four five six seven eight nine ten eleven twelve");
  runner.start(todo.id);
  while (!((await t.prisma.message.findFirst({ where: { todoId: todo.id, role: "assistant" } }))?.content ?? "").includes("four"))
    await new Promise((r) => setTimeout(r, 5));
  // Through the lifecycle, as todo_updateStatus pauses: its signal stops the turn at once.
  await changeTodo(todo.id, (tx, current, fx) => setStatus(tx, current, fx, "PAUSED"));
  await runner.idle();
  assert.equal(await standin.requests[0]!.closed, "interrupted");
  const partial = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(partial.state, "PROCESSING");

  await t.prisma.todo.update({ where: { id: todo.id }, data: { status: "RUNNING" } });
  runner.start(todo.id);
  await runner.idle();
  const done = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" } });
  assert.equal(done.content, "one two three four five six seven eight nine ten eleven twelve");
  const resumed = standin.requests[1]!.json!.messages!;
  assert.deepEqual(resumed.at(-2), { role: "assistant", content: partial.content });
});

test("streamed tool calls through the endpoint: the checklist tool runs, its result goes back, and the answer follows", async () => {
  standin.reset();
  standin.setScript((request) => {
    const last = request.json?.messages?.at(-1);
    if (last?.role === "tool") return { events: [contentChunk("The checklist is ready.", { role: true, finishReason: "stop" })] };
    return { events: toolCallChunks("call_1", "checklist", { add: ["Pack the tent", "Buy snacks"] }) };
  });
  const todo = await openaiTodo("Make me a list");
  runner.start(todo.id);
  await runner.idle();
  const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id }, include: { messages: { where: { role: "assistant" }, include: { blocks: { orderBy: { position: "asc" } } } } } });
  assert.equal(after.status, "READY", JSON.stringify(after.metadata));
  const reply = after.messages[0]!;
  assert.equal(reply.content, "The checklist is ready.");
  assert.deepEqual(reply.blocks.map((b) => b.type), ["tool_call", "checklist_item", "checklist_item"]);
  const sent = standin.requests[0]!.json!;
  assert.ok((sent.tools as { function: { name: string } }[]).some((tool) => tool.function.name === "checklist"));
  const second = standin.requests[1]!.json!.messages!;
  assert.equal(second.at(-1)!.role, "tool");
});
