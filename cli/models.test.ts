import { test } from "node:test";
import assert from "node:assert/strict";
import { CliError, EXIT } from "./exit-codes.ts";
import { chooseModel, modelLabel, modelsText } from "./models.ts";

const providers = [
  { name: "local", kind: "local" as const, default: true, defaultModel: null, maxTokens: 4096, models: [] },
  { name: "openai", kind: "openai" as const, default: false, defaultModel: "gpt-4o-mini", maxTokens: 4096, models: [{ name: "gpt-4o-mini", inPerMTok: 15, outPerMTok: 60 }, { name: "o4-mini", inPerMTok: 110, outPerMTok: 440 }] },
  { name: "lab", kind: "openai-compatible" as const, default: false, defaultModel: null, maxTokens: 2048, models: [{ name: "o4-mini", inPerMTok: 0, outPerMTok: 0 }, { name: "llama3", inPerMTok: 0, outPerMTok: 0 }] },
];
const kept = { systemPrompt: "Be brief.", temperature: 0.2 };

const usageError = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (err: unknown) => err instanceof CliError && err.exitCode === EXIT.USAGE && message.test(err.message));

test("a choice keeps the todo's other agent settings: provider/model, a model one provider offers, a provider, default", () => {
  const current = { ...kept, provider: "local" };
  assert.deepEqual(chooseModel("openai/o4-mini", providers, current), { ...kept, provider: "openai", model: "o4-mini" });
  assert.deepEqual(chooseModel("llama3", providers, current), { ...kept, provider: "lab", model: "llama3" });
  assert.deepEqual(chooseModel("openai", providers, { ...kept, provider: "lab", model: "llama3" }), { ...kept, provider: "openai" });
  assert.deepEqual(chooseModel(" default ", providers, { ...kept, provider: "openai", model: "o4-mini" }), kept);
  assert.deepEqual(chooseModel("default", providers, null), {});
});

test("an unknown provider or model, or a model two providers offer, is a usage error naming what there is", () => {
  usageError(() => chooseModel("o4-mini", providers, null), /Several providers offer o4-mini: name one, e\.g\. openai\/o4-mini or lab\/o4-mini/);
  usageError(() => chooseModel("azure/gpt-4o", providers, null), /No provider "azure" here; there are: local, openai, lab/);
  usageError(() => chooseModel("openai/llama3", providers, null), /openai has no model "llama3"; it has: gpt-4o-mini, o4-mini/);
  usageError(() => chooseModel("local/x", providers, null), /local has no model "x"; it has: none to choose/);
  usageError(() => chooseModel("http://evil.example/v1", providers, null), /No provider "http:" here/);
  usageError(() => chooseModel("gpt-5", providers, null), /No provider or model "gpt-5"/);
});

test("the model in words: what the settings name, else the default it falls back to", () => {
  assert.equal(modelLabel({ provider: "openai", model: "o4-mini" }, providers), "openai · o4-mini");
  assert.equal(modelLabel({ model: "o4-mini" }, providers), "default provider · o4-mini");
  assert.equal(modelLabel(null, providers), "the service's default (the built-in offline agent)");
  assert.equal(modelLabel({}, [{ ...providers[1]!, default: true }]), "the service's default (openai · gpt-4o-mini)");
});

test("todo models lists each provider's models with prices, the default marked", () => {
  const text = modelsText(providers);
  assert.match(text, /^local {2}\(built in, offline\) {2}← default$/m);
  assert.match(text, /^ {2}gpt-4o-mini {2}15¢ in \/ 60¢ out per M tokens {2}\(its default\)$/m);
  assert.match(text, /^ {2}llama3 {2}free$/m);
  assert.match(text, /todo model <id> <provider>\/<model>/);
});
