import { test } from "node:test";
import assert from "node:assert/strict";
import { cloudSizeText, defaultModelText, formatDateTime, formatDue, plural, todoHref, todoTitle, utcDays, withModel } from "./format.ts";

test("utcDays lists every UTC day of the range, both ends included, gaps and month ends too", () => {
  const from = Date.parse("2026-02-27T18:00:00Z");
  const to = Date.parse("2026-03-02T01:00:00Z");
  assert.deepEqual(utcDays(from, to), ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
  assert.deepEqual(utcDays(to, to), ["2026-03-02"]);
  assert.deepEqual(utcDays(to, from), []);
});

test("plural", () => {
  assert.equal(plural(1, "turn"), "1 turn");
  assert.equal(plural(0, "turn"), "0 turns");
  assert.equal(plural(3, "entry", "entries"), "3 entries");
});

test("formatDue: due now once past, minutes, hours, then the date", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  assert.equal(formatDue(now - 5_000, now), "due now");
  assert.equal(formatDue(now, now), "due now");
  assert.equal(formatDue(now + 10_000, now), "in 1 min");
  assert.equal(formatDue(now + 59 * 60_000, now), "in 59 min");
  assert.equal(formatDue(now + 60 * 60_000, now), "in 1 h");
  assert.equal(formatDue(now + 150 * 60_000, now), "in 3 h");
  const later = now + 30 * 3_600_000;
  assert.equal(formatDue(later, now), formatDateTime(later));
});

test("cloudSizeText: whole gigabytes of memory as GB, else MB", () => {
  assert.equal(cloudSizeText({ vcpus: 2, memoryMb: 4096, diskGb: 20 }), "2 vCPUs, 4 GB memory, 20 GB disk");
  assert.equal(cloudSizeText({ vcpus: 1, memoryMb: 1536, diskGb: 10 }), "1 vCPU, 1536 MB memory, 10 GB disk");
});

test("todoTitle: the first line, spaces folded, cut at 60 characters with an ellipsis", () => {
  assert.equal(todoTitle("Move house:\n- Boxes\n- Van"), "Move house:");
  assert.equal(todoTitle("  Plan   the\tbeds  "), "Plan the beds");
  assert.equal(todoTitle("x".repeat(60)), "x".repeat(60));
  assert.equal(todoTitle(`${"word ".repeat(20)}\nmore`), `${"word ".repeat(12).trimEnd()}…`);
  assert.equal(todoTitle("\nsecond line"), "");
});

test("withModel swaps provider and model and keeps every other agent setting; null is the service's default", () => {
  const settings = { provider: "openai", model: "gpt-4o-mini", systemPrompt: "Be brief.", temperature: 0.2 };
  assert.deepEqual(withModel(settings, { provider: "anthropic", model: "claude-3-5-haiku" }), { systemPrompt: "Be brief.", temperature: 0.2, provider: "anthropic", model: "claude-3-5-haiku" });
  // A provider alone drops the old model: it runs the provider's own default.
  assert.deepEqual(withModel(settings, { provider: "local" }), { systemPrompt: "Be brief.", temperature: 0.2, provider: "local" });
  assert.deepEqual(withModel(settings, null), { systemPrompt: "Be brief.", temperature: 0.2 });
  assert.deepEqual(withModel(null, { provider: "openai", model: "gpt-4.1-mini" }), { provider: "openai", model: "gpt-4.1-mini" });
  assert.deepEqual(withModel(null, null), {});
  assert.equal(settings.model, "gpt-4o-mini", "the input is not changed");
});

test("defaultModelText names the built-in agent, or the provider and its default model", () => {
  assert.equal(defaultModelText({ kind: "local", name: "local", defaultModel: null }), "built-in offline agent");
  assert.equal(defaultModelText({ kind: "openai", name: "openai", defaultModel: "gpt-4o-mini" }), "openai · gpt-4o-mini");
  assert.equal(defaultModelText({ kind: "openai-compatible", name: "ollama", defaultModel: null }), "ollama");
});

test("todoHref is a todo's chat path, its ids escaped, opening at a message when given one", () => {
  assert.equal(todoHref("p1", "t1"), "/projects/p1/todos/t1");
  assert.equal(todoHref("p 1", "t/1", "m?1"), "/projects/p%201/todos/t%2F1?message=m%3F1");
  assert.equal(todoHref("p1", "t1", null), "/projects/p1/todos/t1");
});
