import { test } from "node:test";
import assert from "node:assert/strict";
import { authorLabel, hasOthersMessages } from "./message-author.ts";

const members = new Map([
  ["u-owner", { name: "Olga Owner", email: "olga@example.com" }],
  ["u-editor", { name: null, email: "ed@example.com" }],
  ["u-blank", { name: "  ", email: "blank@example.com" }],
]);

test("a user message is the reader's own (You, the default), a member's by name or else email, or User", () => {
  assert.equal(authorLabel({ role: "user", authorId: "u-owner" }, "u-owner", members), undefined);
  assert.equal(authorLabel({ role: "user", authorId: "u-owner" }, "u-editor", members), "Olga Owner");
  assert.equal(authorLabel({ role: "user", authorId: "u-editor" }, "u-owner", members), "ed@example.com");
  assert.equal(authorLabel({ role: "user", authorId: "u-blank" }, "u-owner", members), "blank@example.com");
  // Not (yet) known, a deleted account, the agent's follow-up: "User", never "You".
  assert.equal(authorLabel({ role: "user", authorId: "u-left" }, "u-owner", members), "User");
  assert.equal(authorLabel({ role: "user", authorId: null }, "u-owner", members), "User");
  assert.equal(authorLabel({ role: "user", authorId: "u-editor" }, "u-owner", new Map()), "User");
  for (const role of ["assistant", "system", "tool"] as const) assert.equal(authorLabel({ role, authorId: null }, "u-owner", members), undefined);
});

test("the members are read only when someone else's message is in the chat", () => {
  assert.equal(hasOthersMessages([{ role: "user", authorId: "me" }, { role: "assistant", authorId: null }], "me"), false);
  assert.equal(hasOthersMessages([{ role: "user", authorId: null }], "me"), false);
  assert.equal(hasOthersMessages([{ role: "user", authorId: "me" }, { role: "user", authorId: "them" }], "me"), true);
});
