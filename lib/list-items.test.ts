import { test } from "node:test";
import assert from "node:assert/strict";
import { checklistText, withoutListOf } from "./list-items.ts";

test("checklistText drops a leading Markdown checkbox only", () => {
  assert.equal(checklistText("[ ] book venue"), "book venue");
  assert.equal(checklistText("[x] done"), "done");
  assert.equal(checklistText("[] bare"), "bare");
  assert.equal(checklistText("[link](x) stays"), "[link](x) stays");
});

test("a reply's list that became checklist items is shown once: its lines go, the prose stays", () => {
  const reply = "Here is the plan:\n\n- Book the venue\n- [ ] Send invites\n\n1. Order the cake\n\nThen relax.";
  assert.equal(withoutListOf(reply, new Set(["Book the venue", "Send invites", "Order the cake"])), "Here is the plan:\n\nThen relax.");
});

test("list lines that are not checklist items, and lines in fenced code, stay", () => {
  const reply = "Steps:\n- Book the venue\n- something else\n```\n- Book the venue\n```";
  assert.equal(withoutListOf(reply, new Set(["Book the venue"])), "Steps:\n- something else\n```\n- Book the venue\n```");
  assert.equal(withoutListOf(reply, new Set()), reply);
});
