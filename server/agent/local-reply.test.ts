import { test } from "node:test";
import assert from "node:assert/strict";
import { chunks, countTokens, listItems, planReply } from "./local-reply.ts";

test("list lines of every common kind become items", () => {
  assert.deepEqual(listItems("Plan the launch:\n- book venue\n* send invites\n1. order cake\n2) hire DJ\n[ ] rent chairs\nnot an item"), [
    "book venue",
    "send invites",
    "order cake",
    "hire DJ",
    "rent chairs",
  ]);
  assert.deepEqual(listItems("no list here"), []);
});

test("a list yields a checklist reply, prose yields an approach, both deterministic", () => {
  const a = planReply(["Plan the launch:\n- book venue\n- send invites"]);
  assert.deepEqual(a.checklist, ["book venue", "send invites"]);
  assert.match(a.text, /checklist of 2 items for "Plan the launch:"/);
  assert.deepEqual(planReply(["Plan the launch:\n- book venue\n- send invites"]), a);
  const b = planReply(["Write the README"]);
  assert.deepEqual(b.checklist, []);
  assert.match(b.text, /^On "Write the README"/);
});

test("chunks rebuild the text exactly", () => {
  const text = planReply(["Write the README"]).text;
  const parts = chunks(text);
  assert.ok(parts.length > 5);
  assert.equal(parts.join(""), text);
  assert.equal(countTokens("a b  c\nd"), 4);
});
