import { test } from "node:test";
import assert from "node:assert/strict";
import { startOpenAIStandin, type OpenAIStandin } from "../testing/openai-standin.ts";
import { createTestUser, suiteTestRuntime } from "../testing/runtime.ts";
import { ApiError } from "../http/errors.ts";
import { agentSettingsIssues, checkAgentSettings, configuredProviders } from "./policy.ts";
import { ConfiguredProvider } from "./providers/configured.ts";
import { LocalProvider } from "./providers/local.ts";
import { TurnRunner } from "./turn-runner.ts";

// Issue 9 A12: users pick models from the server's allow-list (with prices) and replies are
// capped, when settings are written and again when a turn starts.
const models = { "gpt-4o-mini": { inPerMTok: 15, outPerMTok: 60 }, "llama3:8b": { inPerMTok: 0, outPerMTok: 0 } };
const policy = { agentModels: models, agentMaxTokens: 4096, agentProvider: "local", agentProviders: [{ name: "openai", models, maxTokens: 4096 }] };
const providerOf = (url: string) => new ConfiguredProvider({ name: "openai", kind: "openai-compatible", baseUrl: url, models, defaultModel: "gpt-4o-mini", maxTokens: 4096, contextWindow: 128_000 });
const t = suiteTestRuntime({ env: { AGENT_MODELS: "gpt-4o-mini,llama3:8b=0/0", AGENT_MAX_TOKENS: "4096" }, setup, teardown });
let standin: OpenAIStandin;

async function setup() {
  standin = await startOpenAIStandin({ delayMs: 1 });
}
async function teardown() {
  await standin.close();
}

test("settings naming a model outside the allow-list, or more tokens than the cap, have issues naming what is allowed", () => {
  assert.deepEqual(agentSettingsIssues({ model: "gpt-4o-mini", maxTokens: 4096 }, "body.agentSettings", policy), []);
  assert.deepEqual(agentSettingsIssues({ provider: "local" }, "body.agentSettings", policy), []);
  assert.deepEqual(agentSettingsIssues(null, "body.agentSettings", policy), []);
  assert.deepEqual(
    agentSettingsIssues({ model: "gpt-4-turbo", maxTokens: 200_000 }, "body.defaultAgent", policy).map((i) => [i.path, i.message]),
    [
      ["body.defaultAgent.model", "must be one of the models this server allows: gpt-4o-mini, llama3:8b"],
      ["body.defaultAgent.maxTokens", "must be at most 4096 on this server"],
    ],
  );
  // Only exact names: a prefix or a prototype key is not a model.
  assert.equal(agentSettingsIssues({ model: "gpt-4o-mini-2024-07-18" }, "a", policy).length, 1);
  assert.equal(agentSettingsIssues({ model: "constructor" }, "a", policy).length, 1);
});

test("checkAgentSettings refuses with 400 BAD_REQUEST and the issues, from the runtime's configuration", () => {
  assert.doesNotThrow(() => checkAgentSettings([{ model: "llama3:8b" }, "body.agentSettings"], [undefined, "body.spec.agentSettings"]));
  assert.throws(
    () => checkAgentSettings([{ model: "o3-mini" }, "body.agentSettings"]),
    (err: unknown) =>
      err instanceof ApiError &&
      err.status === 400 &&
      err.code === "BAD_REQUEST" &&
      /body\.agentSettings\.model: must be one of the models this server allows: gpt-4o-mini, llama3:8b/.test(err.message) &&
      JSON.stringify(err.data) === JSON.stringify({ issues: [{ path: "body.agentSettings.model", message: "must be one of the models this server allows: gpt-4o-mini, llama3:8b", code: "custom" }] }),
  );
});

test("the provider refuses a model outside its allow-list before anything is sent, and caps max_tokens on every turn", async () => {
  const p = providerOf(standin.url);
  standin.reset();
  assert.throws(() => p.modelFor({ model: "gpt-4-turbo" }), /Model "gpt-4-turbo" is not allowed on this server \(allowed: gpt-4o-mini, llama3:8b\)/);
  assert.equal(standin.requests.length, 0);
  for (const [maxTokens, sent] of [[undefined, 4096], [100_000, 4096], [256, 256]] as const) {
    assert.equal(p.modelFor({ model: "llama3:8b", maxTokens }).maxOutputTokens, sent);
  }
  // Costs come from the allow-list's prices (billing's price table).
  assert.equal(p.costCents({ tokensIn: 1_000_000, tokensOut: 0 }, "llama3:8b"), 0);
  assert.equal(p.costCents({ tokensIn: 1_000_000, tokensOut: 0 }, "gpt-4o-mini"), 15);
});

test("settings naming an unknown provider, or a URL, or carrying a base URL are refused (400) and nothing connects", async () => {
  const { ZAgentSettings } = await import("../../lib/schemas/agent.ts");
  assert.deepEqual(agentSettingsIssues({ provider: "ollama" }, "body.agentSettings", policy).map((i) => [i.path, i.message]), [
    ["body.agentSettings.provider", "must be one of the providers this server is configured with: local, openai"],
  ]);
  assert.throws(() => checkAgentSettings([{ provider: "evil" }, "body.agentSettings"]), (err: unknown) => err instanceof ApiError && err.status === 400);
  // A URL is not a name, and a URL field is not a setting: the schema refuses both (400 at the API).
  assert.equal(ZAgentSettings.safeParse({ provider: "http://169.254.169.254/v1" }).success, false);
  assert.equal(ZAgentSettings.safeParse({ provider: "openai", baseUrl: "http://169.254.169.254/v1" }).success, false);
  assert.equal(ZAgentSettings.safeParse({ provider: "openai", apiKey: "sk-x" }).success, false);
  // The picker's list: names and prices, never a URL or a key.
  const listed = JSON.stringify(configuredProviders({ ...policy, agentProviders: [{ name: "openai", kind: "openai-compatible", baseUrl: "http://10.0.0.7:11434/v1", apiKey: "sk-SECRET", models, defaultModel: "gpt-4o-mini", maxTokens: 4096, contextWindow: 128_000 }] }));
  assert.ok(!listed.includes("10.0.0.7") && !listed.includes("sk-SECRET"));
  assert.match(listed, /"name":"llama3:8b"/);
});

test("a turn on a model no longer allowed (settings written before the list changed) ends in ERROR with the reason, and nothing is sent", async () => {
  const runner = new TurnRunner({
    providers: { local: new LocalProvider(0), openai: providerOf(standin.url) },
    defaultProvider: "local",
    maxConcurrent: 4,
    maxPerUser: 4,
    flushMs: 0,
  });
  try {
    standin.reset();
    const user = await createTestUser(t.prisma);
    const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Models" } });
    const todo = await t.prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "hi", status: "RUNNING", agentSettings: { provider: "openai", model: "gpt-4-turbo" } } });
    await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "hi", state: "PENDING" } });
    runner.start(todo.id);
    await runner.idle();
    const after = await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } });
    assert.equal(after.status, "ERROR");
    assert.match((after.metadata as { error: string }).error, /^Model "gpt-4-turbo" is not allowed on this server \(allowed: gpt-4o-mini, llama3:8b\)/);
    assert.equal(standin.requests.length, 0, "the operator's endpoint was never called");
  } finally {
    await runner.stop();
  }
});
